import type { PublicProfile } from '@shared/auth';
import { displayName } from '@shared/users';

/** The name shown for the other party: artist name, else first and last name, else email. */
export function partyName(user: Pick<PublicProfile, 'artistName' | 'firstName' | 'lastName' | 'email'>): string {
  return displayName(user) || user.email || 'Unknown';
}

const DAY_MS = 24 * 60 * 60 * 1000;
const clockTime = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** SPEC §2, §9: clock time when under 24 hours old, otherwise the date. */
export function formatMessageTime(createdAt: string, now: number = Date.now()): string {
  const time = Date.parse(createdAt);
  if (Number.isNaN(time)) return '';
  return now - time < DAY_MS ? clockTime.format(time) : shortDate.format(time);
}
