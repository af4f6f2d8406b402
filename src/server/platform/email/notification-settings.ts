import { eq, sql } from 'drizzle-orm';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationPreference, type NotificationSettings } from '@shared/notifications';
import type { Db } from '../db/client';
import { notificationSettings } from '../db/schema';

/** The user's choices; a user who never changed them has every kind on. */
export async function getNotificationSettings(db: Db, userId: string): Promise<NotificationSettings> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId)).limit(1);
  if (!row) return { ...DEFAULT_NOTIFICATION_SETTINGS };
  return { statusChanges: row.statusChanges, messages: row.messages, deliveries: row.deliveries, digest: row.digest };
}

/** Changes some of the user's choices, leaving the others as they are. */
export async function updateNotificationSettings(
  db: Db,
  userId: string,
  change: Partial<NotificationSettings>,
): Promise<NotificationSettings> {
  const set = { ...change, updatedAt: sql`now()` };
  await db
    .insert(notificationSettings)
    .values({ userId, ...DEFAULT_NOTIFICATION_SETTINGS, ...change })
    .onConflictDoUpdate({ target: notificationSettings.userId, set });
  return getNotificationSettings(db, userId);
}

export async function wantsEmail(db: Db, userId: string, preference: NotificationPreference): Promise<boolean> {
  return (await getNotificationSettings(db, userId))[preference];
}
