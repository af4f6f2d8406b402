/**
 * The lists, limits and texts of the rights (CONTRACT §22) without zod: the dashboard shows an
 * agreement and asks for a signature, and a first page should not carry zod for its words
 * (issue 37, decision 181). ./rights builds its schemas from these and re-exports them.
 */

export const OWNER_ROLES = ['artist', 'writer', 'producer', 'featured', 'other'] as const;
export type OwnerRole = (typeof OWNER_ROLES)[number];
export const OWNER_ROLE_LABELS: Record<OwnerRole, string> = {
  artist: 'Artist',
  writer: 'Writer',
  producer: 'Producer',
  featured: 'Featured artist',
  other: 'Other',
};
export const OWNERS_MAX = 10;
export const OWNER_NAME_MAX = 200;

export const RIGHTS_MESSAGES = {
  sharesTotal: 'The owners’ shares must add up to 100%',
  ownersCount: `A song has between 1 and ${OWNERS_MAX} owners`,
  ownerName: 'Give each owner’s name',
  ownerEmail: 'Enter a valid email address, or leave it empty',
  duplicateEmail: 'Two owners cannot share an email address',
  share: 'A share is a percentage above 0 and at most 100, with at most two decimals',
  isrc: 'An ISRC has 12 characters: CC-XXX-YY-NNNNN (dashes optional)',
  typedName: 'Type your full name to sign',
  consent: 'Tick the box to confirm you agree',
  overrideReason: 'Give the reason for publishing without the rights',
} as const;

export const RIGHTS_TEXTS = {
  signPrompt: 'Sign the licence agreement',
  aiDisclosureLine: 'AI tools were used in making this music.',
} as const;
