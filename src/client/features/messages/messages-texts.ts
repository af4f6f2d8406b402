import type { Role } from '@shared/auth';

/**
 * The Messages page's subtitle, by who reads it: an artist writes to the label team, the team
 * answers its artists (issue 23: the team read the artists' line).
 */
export const MESSAGES_SUBTITLES: Record<Role, string> = {
  user: 'Communicate with the label team about your submissions.',
  admin: 'Answer the artists and write to them about their submissions.',
};
