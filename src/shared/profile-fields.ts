/**
 * The artist profile's field names and limits, without zod: the profile form reads them as it
 * draws, and a first /dashboard of a new artist (which opens the profile dialog at once) should
 * not fetch the schemas' chunk for two constants (issue 27, decision 163). The schemas in
 * shared/auth.ts are built from these and re-export them.
 */
export const ARTIST_NAME_MAX = 200;
export const ARTIST_NAME_TOO_LONG = `Artist name must be at most ${ARTIST_NAME_MAX} characters`;

export const SOCIAL_FIELDS = [
  'instagramHandle',
  'tiktokHandle',
  'twitterHandle',
  'facebookHandle',
  'youtubeHandle',
  'spotifyHandle',
  'soundcloudHandle',
  'applemusicHandle',
  'amazonmusicHandle',
  'deezerHandle',
  'bandcampHandle',
  'otherPlatforms',
] as const;
export type SocialField = (typeof SOCIAL_FIELDS)[number];

/** Every social field empty: a profile that shows none (the team's, an account deleted). */
export const EMPTY_SOCIALS = Object.fromEntries(SOCIAL_FIELDS.map((field) => [field, null])) as Record<SocialField, null>;
