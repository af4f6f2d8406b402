/**
 * Texts of the sign-in and account screens that need no schema: the sign-in page shows them on
 * its first load, and importing them from here keeps zod (the schemas in auth.ts and account.ts,
 * fetched when a form is first checked) out of that load (issue 16, decision 144).
 */

/**
 * A password-reset or email-verification link that is unknown, used or past its time (CONTRACT §11),
 * also the API's message of `invalid_reset_link` (errors.ts, which takes it from here so that the
 * sign-in page's code does not bring the API's whole error table; decision 202).
 */
export const INVALID_LINK_MESSAGE = 'This link is invalid or has expired';

/**
 * Shown on /auth after a failed sign-in with the OpenID provider (CONTRACT §3, §23), named as
 * configured (`provider`: "Google", "Microsoft", …). Keys travel in `?error=`.
 */
export const GOOGLE_ERRORS = {
  // CONTRACT §3's text, letter for letter: a server without a provider has no other name to give.
  not_configured: () => 'Google sign-in is not configured',
  failed: (provider: string) => `Sign-in with ${provider} failed. Please try again.`,
  unverified_email: (provider: string) => `The email of your ${provider} account is not verified.`,
  no_email: (provider: string) =>
    `Your ${provider} account did not share an email address. An account here needs one: allow it to share your email, or sign up with email and password.`,
} as const;
/** The provider's name when none is known (the sign-in is not configured, or the config did not load). */
export const UNNAMED_PROVIDER = 'your sign-in provider';
/** The sign-in button: "Continue with Google", "Continue with Microsoft". */
export const continueWith = (provider: string) => `Continue with ${provider}`;
export type GoogleErrorCode = keyof typeof GOOGLE_ERRORS;

/** The product's texts for the account screens: one place, used by the server's answers and the client. */
export const ACCOUNT_TEXTS = {
  resetRequested: 'If an account exists for that address, we have sent it a link to choose a new password.',
  passwordReset: 'Your password has been changed. Please sign in with the new one.',
  forgotPassword: 'Forgot password?',
  /** The reset page, opened from a link already used, expired or replaced by a newer one (issue 43). */
  resetLinkSpentTitle: 'This link can no longer be used',
  resetLinkSpentBody: 'A reset link works once, for one hour, and only the newest one counts. Ask for a new link and open it from the latest email.',
  resetLinkNew: 'Send me a new link',
  resetLinkChecking: 'Checking your link...',
  wrongCurrentPassword: 'Your current password is not correct',
  wrongPassword: 'That password is not correct',
  noPasswordYet:
    'Your account signs in with Google and has no password yet. Choose one with "Forgot password?" on the sign-in page first.',
  emailChangeRequested: 'We have sent a link to your new address. Your email changes when you open it.',
  lastAdmin: 'The last admin cannot be demoted',
  lastAdminDeletion: 'The last admin cannot delete their account. Make someone else an admin first.',
  sessionNotFound: 'Session not found',
} as const;

/** The banner that asks an artist to confirm their address (CONTRACT §11). */
export const VERIFY_EMAIL_TEXTS = {
  banner: 'Please confirm your email address. We sent you a link when you signed up.',
  resend: 'Send the link again',
  resent: 'We sent you a new link. It is valid for 24 hours.',
  invalidLink: INVALID_LINK_MESSAGE,
  verified: 'Your email address is confirmed.',
  /** A link opened again after it worked: said beside invalidLink, so the artist knows nothing is wrong. */
  alreadyVerified: 'Your email address is already confirmed: there is nothing more to do.',
  dismiss: 'Dismiss',
  /** Without a mail server (decision 155): no link can reach the artist, so the banner says so and may be hidden. */
  bannerNoMail:
    'Please confirm your email address. No mail server is set up yet, so no link was sent: the label’s team can confirm it for you on their Users page.',
  hide: 'Hide for now',
  queued: 'No mail server is configured, so no link was sent. The label’s team can confirm your address instead.',
  confirmedByAdmin: 'Email address confirmed',
} as const;
