import { adminDigest } from './templates/admin-digest';
import { passwordReset } from './templates/password-reset';
import { paymentReceived } from './templates/payment-received';
import { deliverablesReady, refundIssued, videoPublished, viralHitRecorded } from './templates/production';
import { statusChanged } from './templates/status-changed';
import { submissionReceived } from './templates/submission-received';
import type { EmailTemplate } from './templates/template';
import { unreadMessages } from './templates/unread-messages';
import { verifyEmail } from './templates/verify-email';

/** Every kind of email the product sends (CONTRACT §10), by the name stored in the outbox. */
export const EMAIL_TEMPLATES = {
  verify_email: verifyEmail,
  password_reset: passwordReset,
  submission_received: submissionReceived,
  payment_received: paymentReceived,
  status_changed: statusChanged,
  unread_messages: unreadMessages,
  admin_digest: adminDigest,
  deliverables_ready: deliverablesReady,
  video_published: videoPublished,
  viral_hit_recorded: viralHitRecorded,
  refund_issued: refundIssued,
} satisfies Record<string, EmailTemplate<never>>;

export type EmailKind = keyof typeof EMAIL_TEMPLATES;
export type EmailData<K extends EmailKind> = (typeof EMAIL_TEMPLATES)[K] extends EmailTemplate<infer D> ? D : never;

export const isEmailKind = (kind: string): kind is EmailKind => Object.hasOwn(EMAIL_TEMPLATES, kind);
