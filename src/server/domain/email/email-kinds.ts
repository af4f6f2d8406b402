import type { EmailPreparer, EmailTemplate, Outbox, OutboxKind } from '../../platform/email/outbox';
import { mintPasswordResetLink, mintVerificationLink } from './emailed-links';
import { adminDigest } from './templates/admin-digest';
import { passwordReset, type PasswordResetData } from './templates/password-reset';
import { paymentReceived } from './templates/payment-received';
import { deliverablesReady, refundIssued, videoPublished, viralHitRecorded } from './templates/production';
import { statusChanged } from './templates/status-changed';
import { submissionReceived } from './templates/submission-received';
import { unreadMessages, type UnreadMessagesData } from './templates/unread-messages';
import { verifyEmail, type VerifyEmailData } from './templates/verify-email';
import { gatherUnreadMessages } from './unread-messages-email';
import { gatherDeliveryComments } from './delivery-comments-email';
import { deliveryComments, type DeliveryCommentsData } from './templates/delivery-comments';
import { agreementSignatureReceived, agreementSigned, signingInvitation, type SigningInvitationData } from './templates/agreement';
import { mintSigningLink } from './signing-links';

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
 * template and, where the email needs one, what completes it at send time. Adding a kind is a
 * template in templates/ and its line here; nothing is registered at run time.
 */
export const EMAIL_KINDS = {
  verify_email: preparedAtSend<Omit<VerifyEmailData, 'verifyUrl'>>()(verifyEmail, mintVerificationLink),
  password_reset: preparedAtSend<Omit<PasswordResetData, 'resetUrl'>>()(passwordReset, mintPasswordResetLink),
  submission_received: sentAsQueued(submissionReceived),
  payment_received: sentAsQueued(paymentReceived),
  status_changed: sentAsQueued(statusChanged),
  unread_messages: preparedAtSend<UnreadMessagesData>()(unreadMessages, gatherUnreadMessages),
  admin_digest: sentAsQueued(adminDigest),
  deliverables_ready: sentAsQueued(deliverablesReady),
  video_published: sentAsQueued(videoPublished),
  viral_hit_recorded: sentAsQueued(viralHitRecorded),
  refund_issued: sentAsQueued(refundIssued),
  delivery_comments: preparedAtSend<DeliveryCommentsData>()(deliveryComments, gatherDeliveryComments),
  signing_invitation: preparedAtSend<Omit<SigningInvitationData, 'signUrl' | 'validUntil'>>()(signingInvitation, mintSigningLink),
  agreement_signature_received: sentAsQueued(agreementSignatureReceived),
  agreement_signed: sentAsQueued(agreementSigned),
};

export type EmailKinds = typeof EMAIL_KINDS;

/** What a domain function needs to send email: queue it inside its transaction. */
export type EmailQueue = Pick<Outbox<EmailKinds>, 'queue' | 'queueMany'>;
