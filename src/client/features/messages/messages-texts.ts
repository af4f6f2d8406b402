import type { Role } from '@shared/auth';

/**
 * The Messages page's subtitle, by who reads it: an artist writes to the label team, the team
 * answers its artists (issue 23: the team read the artists' line).
 */
export const MESSAGES_SUBTITLES: Record<Role, string> = {
  user: 'Communicate with the label team about your submissions.',
  admin: 'Answer the artists and write to them about their submissions.',
};

/**
 * The empty conversation list, by who reads it. An artist's list is empty until they or the team
 * write, and the button under it writes to the team: "Messages will appear here when admins contact
 * you" told them to wait right above a button that does not (issue 43).
 */
export const NO_CONVERSATIONS_HINT: Record<Role, string> = {
  user: 'Questions about a submission? Write to the label team; their answers appear here.',
  admin: 'Conversations with artists appear here when they write or you start one.',
};
