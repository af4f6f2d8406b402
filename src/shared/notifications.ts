import { z } from 'zod';
import type { NotificationPreference } from './notification-texts';

// The kinds and their names live apart from the schemas, so the unsubscribe page's code does not
// bring zod with it (issue 50, decision 202).
export { NOTIFICATION_PREFERENCES, NOTIFICATION_PREFERENCE_TEXTS, type NotificationPreference } from './notification-texts';

export const notificationSettingsSchema = z.object({
  statusChanges: z.boolean({ message: 'statusChanges must be true or false' }),
  messages: z.boolean({ message: 'messages must be true or false' }),
  deliveries: z.boolean({ message: 'deliveries must be true or false' }),
  digest: z.boolean({ message: 'digest must be true or false' }),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  statusChanges: true,
  messages: true,
  deliveries: true,
  digest: true,
};

export const unsubscribeSchema = z.object({ token: z.string().min(1).max(512) });

/** What the unsubscribe endpoint answers, so the page can say what was turned off. */
export interface UnsubscribeResult {
  preference: NotificationPreference;
}

export const OUTBOX_STATUSES = ['pending', 'sent', 'logged', 'skipped', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export const OUTBOX_STATUS_LABELS: Record<OutboxStatus, string> = {
  pending: 'Waiting',
  sent: 'Sent',
  logged: 'Not sent (no SMTP)',
  skipped: 'Not needed',
  failed: 'Gave up',
};

interface OutboxEmail {
  id: string;
  kind: string;
  toAddress: string;
  subject: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  textBody: string | null;
  sendAfter: string;
  sentAt: string | null;
  createdAt: string;
}

export interface OutboxPage {
  emails: OutboxEmail[];
  total: number;
  page: number;
  pageSize: number;
  /** False when no SMTP_URL is set: nothing leaves the server. */
  smtpConfigured: boolean;
}

/**
 * The Outbox page shows this many emails at a time: fifty made one 4,485 px page out of a month's
 * mail (issue 36); twenty fit two screens of a laptop.
 */
export const OUTBOX_PAGE_SIZE = 20;

export const outboxQuerySchema = z.object({
  status: z.enum(OUTBOX_STATUSES).optional(),
  /** Part of the recipient's address or of the subject, any case. */
  q: z.string().trim().max(200, 'Search must be at most 200 characters').optional().default(''),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(OUTBOX_PAGE_SIZE),
});
