import { PUBLIC_PROFILE_FIELDS, type PublicProfile, type PublicUser } from '@shared/auth';
import type { UserRow } from './db/schema';

/**
 * Worked out once per row object: a signed-in user's row is remembered across requests
 * (platform/sessions.ts), and rows are never changed in place — a change reads a new row.
 */
const publicViews = new WeakMap<UserRow, PublicUser>();

/**
 * The user's own account as their own answers carry it: never the password hash or the Google
 * subject (CONTRACT §2). Only for the person themselves; anyone else gets toPublicProfile.
 */
export function toPublicUser(row: UserRow): PublicUser {
  let view = publicViews.get(row);
  if (!view) publicViews.set(row, (view = publicView(row)));
  return view;
}

function publicView(row: UserRow): PublicUser {
  // `awayAt` is the team's own scheduling (CONTRACT §26), read through /api/admin/me/availability.
  const { password: _password, googleId: _googleId, deletedAt: _deletedAt, awayAt: _awayAt, createdAt, updatedAt, profilePromptDismissedAt, ...rest } = row;
  return {
    ...rest,
    profilePromptDismissedAt: profilePromptDismissedAt ? profilePromptDismissedAt.toISOString() : null,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

/**
 * Another person, as every response that carries someone other than the caller shows them:
 * exactly the fields of the shared allow-list (PUBLIC_PROFILE_FIELDS), copied one by one, so a
 * column added to `users` stays private until it is added there.
 */
export function toPublicProfile(row: UserRow): PublicProfile {
  return Object.fromEntries(PUBLIC_PROFILE_FIELDS.map((field) => [field, row[field]])) as PublicProfile;
}

/** True when a database error is a unique-constraint violation (either driver, wrapped or not). */
export function isUniqueViolation(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && depth < 3; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
