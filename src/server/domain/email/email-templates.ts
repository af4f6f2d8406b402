import type { TemplatesModule } from '../../platform/email/render-pool';
import { adminDigest } from './templates/admin-digest';
import { agreementCopy, agreementSignatureReceived, agreementSigned, signingInvitation } from './templates/agreement';
import { decisionOverdue, decisionReminder } from './templates/decision-reminder';
import { deliveryComments } from './templates/delivery-comments';
import { passwordReset } from './templates/password-reset';
import { payeeLink } from './templates/payee';
import { paymentReceived } from './templates/payment-received';
import { bonusClawedBack, deliverablesReady, refundIssued, videoPublished, viralHitRecorded, viralHitWithdrawn } from './templates/production';
import { statusChanged } from './templates/status-changed';
import { changesRequested } from './templates/changes-requested';
import { submissionReceived } from './templates/submission-received';
import { unreadMessages } from './templates/unread-messages';
import { verifyEmail } from './templates/verify-email';

/**
 * Every email template, by the kind stored in the outbox. EMAIL_KINDS (email-kinds.ts) pairs each
 * with what completes it at send time; this table is what the outbox's render threads import
 * (decision 180): the templates and nothing else, so a thread starts without loading the
 * preparers' database code.
 */
export const EMAIL_TEMPLATES = {
  verify_email: verifyEmail,
  password_reset: passwordReset,
  submission_received: submissionReceived,
  payment_received: paymentReceived,
  status_changed: statusChanged,
  changes_requested: changesRequested,
  unread_messages: unreadMessages,
  admin_digest: adminDigest,
  deliverables_ready: deliverablesReady,
  video_published: videoPublished,
  viral_hit_recorded: viralHitRecorded,
  viral_hit_withdrawn: viralHitWithdrawn,
  bonus_clawed_back: bonusClawedBack,
  refund_issued: refundIssued,
  delivery_comments: deliveryComments,
  signing_invitation: signingInvitation,
  agreement_signature_received: agreementSignatureReceived,
  agreement_signed: agreementSigned,
  agreement_copy: agreementCopy,
  decision_reminder: decisionReminder,
  decision_overdue: decisionOverdue,
  payee_link: payeeLink,
};

/** Where a render thread imports EMAIL_TEMPLATES from: a template's functions cannot be sent to another thread. */
export const EMAIL_TEMPLATES_MODULE: TemplatesModule = { url: import.meta.url, exportName: 'EMAIL_TEMPLATES' };
