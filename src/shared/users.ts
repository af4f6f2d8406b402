import type { PublicUser } from './auth';

/** How a person appears and what they are asked, without zod: first screens need these (decision 144). */

/**
 * The profile prompt opens by itself once, for an artist who has neither completed the profile nor
 * closed the prompt; never for the label's team, who have no artist profile.
 */
export function shouldPromptForProfile(user: Pick<PublicUser, 'role' | 'profileSetupComplete' | 'profilePromptDismissedAt'>): boolean {
  return user.role !== 'admin' && !user.profileSetupComplete && user.profilePromptDismissedAt === null;
}

/** SPEC §2: artist name, else first and last name. */
export function displayName(user: Pick<PublicUser, 'artistName' | 'firstName' | 'lastName'>): string {
  if (user.artistName?.trim()) return user.artistName.trim();
  return [user.firstName, user.lastName].filter((p) => p?.trim()).join(' ');
}

/**
 * Where a person lands after signing in: the team on the review desk (issue 23: an admin landed on
 * the artist dashboard), artists on theirs. The team still reaches the artist view by 'User View'.
 */
export function homePathOf(user: Pick<PublicUser, 'role'>): '/admin' | '/dashboard' {
  return user.role === 'admin' ? '/admin' : '/dashboard';
}
