/**
 * The kinds of notification email a person can turn off (CONTRACT §10). Account emails
 * (verification, password reset) and payment receipts are not notifications: they always go.
 */
export const NOTIFICATION_PREFERENCES = ['statusChanges', 'messages', 'deliveries', 'digest'] as const;
export type NotificationPreference = (typeof NOTIFICATION_PREFERENCES)[number];

/** How each preference is named on the settings screen and on the unsubscribe page. */
export const NOTIFICATION_PREFERENCE_TEXTS: Record<NotificationPreference, { label: string; description: string; adminOnly?: boolean }> = {
  statusChanges: {
    label: 'Submission updates',
    description: 'When we receive a submission and when its status changes, with the review when there is one.',
  },
  messages: {
    label: 'Messages',
    description: 'When someone writes to you and you have not read it within a few minutes.',
  },
  deliveries: {
    label: 'Deliveries',
    description: 'When your video is ready, published, or reaches a milestone.',
  },
  digest: {
    label: 'Daily digest',
    description: 'One email a day with new and overdue submissions.',
    adminOnly: true,
  },
};
