import type { EmailPreparer, EmailTemplate, Outbox, OutboxKind } from '../../platform/email/outbox';
import { mintPasswordResetLink, mintVerificationLink } from './emailed-links';
import { EMAIL_TEMPLATES as T } from './email-templates';
import type { PasswordResetData } from './templates/password-reset';
import type { UnreadMessagesData } from './templates/unread-messages';
import type { VerifyEmailData } from './templates/verify-email';
import { gatherUnreadMessages } from './unread-messages-email';
import { gatherDeliveryComments } from './delivery-comments-email';
import type { DeliveryCommentsData } from './templates/delivery-comments';
import type { SigningInvitationData } from './templates/agreement';
import { mintSigningLink } from './signing-links';
import { attachAgreementCopy } from './agreement-copy';
import type { PayeeLinkData } from './templates/payee';
import { mintPayeeLink } from './payee-links';

/** A kind sent with the data it was queued with. */
const sentAsQueued = <Data>(template: EmailTemplate<Data>): OutboxKind<Data, Data> => ({ template, prepare: null });

/**
 * A kind whose email is completed as it goes out: `prepare` adds what could not be known (or
 * must not be stored) when it was queued, so the caller queues `Queued` without those fields — an
 * empty link cannot be queued, and a kind whose template needs one cannot be declared without
 * the function that makes it.
 */
const preparedAtSend =
  <Queued>() =>
  <Sent extends Queued>(template: EmailTemplate<Sent>, prepare: EmailPreparer<Sent>): OutboxKind<Queued, Sent> => ({ template, prepare });

/**
 * Every kind of email the product sends (CONTRACT §10), by the name stored in the outbox: its
 * template (from EMAIL_TEMPLATES, under the same name) and, where the email needs one, what
 * completes it at send time. Adding a kind is a template in templates/, its line in
 * email-templates.ts and its line here (`satisfies` refuses one without the other); nothing is
 * registered at run time.
 */
export const EMAIL_KINDS = {
  verify_email: preparedAtSend<Omit<VerifyEmailData, 'verifyUrl'>>()(T.verify_email, mintVerificationLink),
  password_reset: preparedAtSend<Omit<PasswordResetData, 'resetUrl'>>()(T.password_reset, mintPasswordResetLink),
  submission_received: sentAsQueued(T.submission_received),
  payment_received: sentAsQueued(T.payment_received),
  status_changed: sentAsQueued(T.status_changed),
  changes_requested: sentAsQueued(T.changes_requested),
  unread_messages: preparedAtSend<UnreadMessagesData>()(T.unread_messages, gatherUnreadMessages),
  admin_digest: sentAsQueued(T.admin_digest),
  deliverables_ready: sentAsQueued(T.deliverables_ready),
  video_published: sentAsQueued(T.video_published),
  viral_hit_recorded: sentAsQueued(T.viral_hit_recorded),
  viral_hit_withdrawn: sentAsQueued(T.viral_hit_withdrawn),
  bonus_clawed_back: sentAsQueued(T.bonus_clawed_back),
  refund_issued: sentAsQueued(T.refund_issued),
  delivery_comments: preparedAtSend<DeliveryCommentsData>()(T.delivery_comments, gatherDeliveryComments),
  signing_invitation: preparedAtSend<Omit<SigningInvitationData, 'signUrl' | 'validUntil'>>()(T.signing_invitation, mintSigningLink),
  agreement_signature_received: sentAsQueued(T.agreement_signature_received),
  agreement_signed: sentAsQueued(T.agreement_signed),
  agreement_copy: { ...sentAsQueued(T.agreement_copy), attach: attachAgreementCopy },
  decision_reminder: sentAsQueued(T.decision_reminder),
  decision_overdue: sentAsQueued(T.decision_overdue),
  payee_link: preparedAtSend<Omit<PayeeLinkData, 'payeeUrl' | 'validUntil'>>()(T.payee_link, mintPayeeLink),
} satisfies Record<keyof typeof T, unknown>;

export type EmailKinds = typeof EMAIL_KINDS;

/** What a domain function needs to send email: queue it inside its transaction. */
export type EmailQueue = Pick<Outbox<EmailKinds>, 'queue' | 'queueMany'>;
