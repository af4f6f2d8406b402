/**
 * The routes anyone may call without signing in, as `METHOD /url` exactly as registered. Every
 * other route is guarded by its group's requireUser/requireAdmin, and the route-walk test
 * (src/server/attack/route-walk.test.ts) refuses any route that is neither guarded nor listed
 * here. A HEAD route is public when its GET is.
 */
export const PUBLIC_ROUTES: readonly string[] = [
  'GET /healthz',
  'GET /readyz',
  'GET /api/config',
  'POST /api/register',
  'POST /api/login',
  'GET /api/login',
  // Signing out without a session is harmless and answers 200 (a stale tab may do it).
  'POST /api/logout',
  'GET /api/auth/google',
  'GET /api/auth/google/callback',
  // Links in emails: the signed token, not a session, decides.
  'GET /api/verify-email',
  'POST /api/password-reset',
  'GET /api/password-reset',
  'POST /api/password-reset/confirm',
  'POST /api/unsubscribe',
  'GET /api/unsubscribe',
  // tus's capabilities (OPTIONS): the protocol's, nobody's uploads.
  'OPTIONS /api/video-uploads',
  'OPTIONS /api/video-uploads/:id',
  // A co-owner's signing link (CONTRACT §22): the single-use token, not a session, decides.
  'GET /api/sign/:token',
  'POST /api/sign/:token',
  // Its signed copy, for an hour after the token was used to sign (decision 189).
  'GET /api/sign/:token/agreement.pdf',
  // A payee's own page (CONTRACT §24): their 30-day link's token, not a session, decides; a fresh
  // link on request answers 202 whoever asks.
  'POST /api/payee/link',
  'GET /api/payee/:token',
  'POST /api/payee/:token/payout-account',
  'POST /api/payee/:token/tax-form',
  'GET /api/payee/:token/tax-form.pdf',
  'GET /api/payee/:token/statements',
  'GET /api/payee/:token/statements/:year.pdf',
  // Stripe's own calls: the signature, not a session, decides.
  'POST /api/webhooks/stripe',
];
