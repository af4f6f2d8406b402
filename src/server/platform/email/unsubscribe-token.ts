import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_PREFERENCES, type NotificationPreference } from '@shared/notifications';

/**
 * The token of an unsubscribe link: the user and the kind of email, signed with the server's
 * secret. It does one thing, turning that kind off for that user, so replaying it changes
 * nothing more, and the signature makes it useless for anyone else. It needs no sign-in
 * (RFC 8058: a mail provider posts it on the user's behalf) and does not expire, because the
 * link in a year-old email must still work.
 */
const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`unsubscribe\u0000${payload}`).digest('base64url');

export function createUnsubscribeToken(secret: string, userId: string, preference: NotificationPreference): string {
  const payload = Buffer.from(`${userId}:${preference}`).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

export function readUnsubscribeToken(
  secret: string,
  token: string,
): { userId: string; preference: NotificationPreference } | null {
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [userId, preference, rest] = Buffer.from(payload, 'base64url').toString('utf8').split(':');
  if (!userId || rest !== undefined || !NOTIFICATION_PREFERENCES.includes(preference as NotificationPreference)) return null;
  return { userId, preference: preference as NotificationPreference };
}
