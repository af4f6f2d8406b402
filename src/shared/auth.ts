import { z } from 'zod';
import { ARTIST_NAME_MAX, ARTIST_NAME_TOO_LONG, SOCIAL_FIELDS, type SocialField } from './profile-fields';

export { ARTIST_NAME_MAX, ARTIST_NAME_TOO_LONG, SOCIAL_FIELDS, type SocialField };

/** Validation messages are the product's texts (SPEC §5), letter for letter. */
export const AUTH_MESSAGES = {
  email: 'Please enter a valid email address',
  password: 'Password must be at least 6 characters',
  firstName: 'First name must be at least 2 characters',
  lastName: 'Last name must be at least 2 characters',
  confirmPassword: 'Please confirm your password',
  passwordsDontMatch: "Passwords don't match",
  artistName: 'Artist name is required',
} as const;

export const PASSWORD_MIN = 6;
/** scrypt hashes any length, but an unbounded password is a cheap way to burn server CPU. */
export const PASSWORD_MAX = 200;
const NAME_MIN = 2;
const NAME_MAX = 100;

const email = z
  .string()
  .trim()
  .max(254, AUTH_MESSAGES.email)
  .pipe(z.email({ message: AUTH_MESSAGES.email }));
/** A password someone chooses (registering, resetting, changing it): SPEC §5's minimum, our maximum. */
export const newPasswordSchema = z
  .string({ message: AUTH_MESSAGES.password })
  .min(PASSWORD_MIN, AUTH_MESSAGES.password)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);
const password = newPasswordSchema;

export const loginSchema = z.object({ email, password });
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  firstName: z.string().trim().min(NAME_MIN, AUTH_MESSAGES.firstName).max(NAME_MAX, `First name must be at most ${NAME_MAX} characters`),
  lastName: z.string().trim().min(NAME_MIN, AUTH_MESSAGES.lastName).max(NAME_MAX, `Last name must be at most ${NAME_MAX} characters`),
  email,
  password,
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** The register form adds the confirmation, which is never sent (SPEC §5). */
export const registerFormSchema = registerSchema
  .extend({ confirmPassword: z.string().min(PASSWORD_MIN, AUTH_MESSAGES.confirmPassword) })
  .refine((v) => v.password === v.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDontMatch,
    path: ['confirmPassword'],
  });


/** Social links are free text with no validation beyond a sane length (SPEC §5). */
const socialValue = z.string().trim().max(500, 'Must be at most 500 characters').nullish().transform((v) => v || null);

export const socialLinksSchema = z.object(
  Object.fromEntries(SOCIAL_FIELDS.map((f) => [f, socialValue])) as Record<SocialField, typeof socialValue>,
);
export type SocialLinksInput = z.input<typeof socialLinksSchema>;

export const profileSchema = socialLinksSchema.extend({
  artistName: z.string().trim().min(1, AUTH_MESSAGES.artistName).max(ARTIST_NAME_MAX, ARTIST_NAME_TOO_LONG),
  country: socialValue,
});
export type ProfileInput = z.input<typeof profileSchema>;

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];
/** How an account signs in: a password, or Google (CONTRACT §3). */
export const AUTH_PROVIDERS = ['local', 'google'] as const;

const nullableText = z.string().nullable();

/**
 * The signed-in user's own account as their own answers carry it (`/api/user`, sign-in, profile):
 * never the password hash (CONTRACT §2). The server compiles those answers' serialiser from this
 * schema (platform/response-schemas.ts), so a field not listed here never leaves it. Anyone else
 * sees a PublicProfile.
 */
export const publicUserSchema = z.object({
  id: z.string(),
  email: nullableText,
  authProvider: z.enum(AUTH_PROVIDERS),
  firstName: nullableText,
  lastName: nullableText,
  profileImageUrl: nullableText,
  artistName: nullableText,
  country: nullableText,
  instagramHandle: nullableText,
  tiktokHandle: nullableText,
  twitterHandle: nullableText,
  facebookHandle: nullableText,
  youtubeHandle: nullableText,
  spotifyHandle: nullableText,
  soundcloudHandle: nullableText,
  applemusicHandle: nullableText,
  amazonmusicHandle: nullableText,
  deezerHandle: nullableText,
  bandcampHandle: nullableText,
  otherPlatforms: nullableText,
  profileSetupComplete: z.boolean(),
  /** When the artist closed the first-visit profile prompt (it opens by itself only before that). */
  profilePromptDismissedAt: nullableText,
  role: z.enum(ROLES),
  /** False until the address is confirmed by a link we sent it (or by Google). */
  emailVerified: z.boolean(),
  /** An address the user is changing to; it takes effect when its verification link is opened. */
  pendingEmail: nullableText,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/**
 * Another person as a response carries them (CONTRACT §7 "public fields only"): an artist sees a
 * team member this way, the team sees an artist this way, in messages, conversations, contacts and
 * on the desk. The mask is the allow-list: who the person is, how to reach them and the links they
 * chose to share. Nothing about the state of their account (whether the address is verified, the
 * address they are changing to, how they sign in, the profile prompt, the account's dates).
 */
const publicProfileSchema = publicUserSchema.pick({
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  artistName: true,
  profileImageUrl: true,
  role: true,
  country: true,
  instagramHandle: true,
  tiktokHandle: true,
  twitterHandle: true,
  facebookHandle: true,
  youtubeHandle: true,
  spotifyHandle: true,
  soundcloudHandle: true,
  applemusicHandle: true,
  amazonmusicHandle: true,
  deezerHandle: true,
  bandcampHandle: true,
  otherPlatforms: true,
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;
/** The allow-list as field names, for the server's one serialiser (platform/public-user.ts). */
export const PUBLIC_PROFILE_FIELDS = Object.keys(publicProfileSchema.shape) as (keyof PublicProfile)[];
