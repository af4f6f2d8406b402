import type { FastifyInstance, FastifyReply } from 'fastify';
import { TOKEN_MAX } from '@shared/account';
import { loginSchema, publicUserSchema, registerSchema } from '@shared/auth';
import { VERIFY_EMAIL_TEXTS, type GoogleErrorCode } from '@shared/auth-texts';
import { mailDelivery } from '@shared/api';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { clientGoneSignal } from '../../platform/client-gone';
import { apiError, parseInput } from '../../platform/errors';
import { toPublicUser } from '../../platform/public-user';
import { rateLimited } from '../../platform/rate-limits';
import { responseSchema } from '../../platform/response-schemas';
import { requireUser, userOf } from '../../platform/sessions';
import { authenticate, registerLocalUser, signInWithGoogle } from './accounts';
import {
  queueEmailChangeVerification,
  queueVerificationEmail,
  verifyEmailToken,
} from './email-verification';
import { createGoogleSignIn, type GoogleFlow } from './google';
import { assertLoginAllowed, loginClientOf, recordLoginFailure, recordLoginSuccess, setDeviceCookie } from './login-throttle';
import { homePathOf } from '@shared/users';

const GOOGLE_FLOW_COOKIE = 'google_flow';
const GOOGLE_FLOW_TTL_S = 10 * 60;

export async function authRoutes(app: FastifyInstance, { db, config }: { db: Db; config: Config }) {
  app.post(
    '/api/register',
    rateLimited('registrations', 'address'),
    async (request, reply) => {
      const input = parseInput(registerSchema, request.body);
      const user = await registerLocalUser(db, app.outbox, input, clientGoneSignal(reply));
      await app.sessions.start(reply, user.id, 'register');
      request.log.info({ userId: user.id }, 'account registered');
      return reply.status(201).send(toPublicUser(user));
    },
  );

  // The link in the email; it needs no session (it may be opened on another device).
  app.get<{ Querystring: { token?: unknown } }>('/api/verify-email', async (request, reply) => {
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    const userId = token.length > 0 && token.length <= TOKEN_MAX ? await verifyEmailToken(db, token) : null;
    if (userId) {
      // Every instance drops the cached user: the banner goes, a changed address shows at once.
      await app.sessions.forgetUser(userId);
      request.log.info({ userId }, 'email address verified');
    }
    // The dashboard says which it was: the banner that just disappeared told the artist nothing.
    return reply.redirect(userId ? '/dashboard?verification=done' : '/dashboard?verification=invalid');
  });

  app.post(
    '/api/verify-email/resend',
    { preHandler: requireUser, ...rateLimited('verificationEmails') },
    async (request, reply) => {
      const user = userOf(request);
      if (user.pendingEmail) {
        const pendingEmail = user.pendingEmail;
        await db.transaction((tx) => queueEmailChangeVerification(tx, app.outbox, user, pendingEmail));
      } else if (!user.emailVerified && user.email) {
        await db.transaction((tx) => queueVerificationEmail(tx, app.outbox, user));
      }
      // Honest about the mail (decision 155): without a mail server the link waits in the outbox, unsent.
      const mail = mailDelivery(app.outbox.smtpConfigured);
      const message = mail === 'sending' ? 'If your address still needs confirming, a new link is on its way.' : VERIFY_EMAIL_TEXTS.queued;
      return reply.status(202).send({ message, mail });
    },
  );

  app.post('/api/login', async (request, reply) => {
    const { email, password } = parseInput(loginSchema, request.body);
    const client = loginClientOf(request, email);
    await assertLoginAllowed(db, email, client);
    // A browser that signed in to this account before is served first: a flood of sign-ins
    // from elsewhere cannot keep its owner out with 503s (decision 173).
    const user = await authenticate(db, email, password, clientGoneSignal(reply), client.device !== undefined);
    if (!user) {
      // 429 instead when failures at the same moment reached a limit first.
      await recordLoginFailure(db, email, client);
      request.log.info({ ip: request.ip, knownDevice: client.device !== undefined }, 'failed sign-in');
      throw apiError('invalid_credentials');
    }
    await recordLoginSuccess(db, email, client);
    await app.sessions.start(reply, user.id, 'password');
    setDeviceCookie(reply, email, config.publicUrl.protocol === 'https:');
    return toPublicUser(user);
  });

  app.post('/api/logout', async (request, reply) => {
    await app.sessions.end(request, reply);
    return { message: 'Logged out' };
  });

  // Written by a serialiser compiled from the shared schema: no field beyond PublicUser's leaves.
  const currentUser = { preHandler: requireUser, schema: { response: { 200: responseSchema(publicUserSchema) } } };
  const sendUser = async (request: Parameters<typeof userOf>[0], reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    return toPublicUser(userOf(request));
  };
  app.get('/api/user', currentUser, sendUser);
  app.get('/api/auth/user', currentUser, sendUser);

  // SPEC sends the browser to /api/login when a call answers 401; the sign-in screen lives at /auth.
  app.get('/api/login', async (_request, reply) => reply.redirect('/auth'));

  const authError = (reply: FastifyReply, code: GoogleErrorCode) =>
    reply.redirect(`/auth?error=${encodeURIComponent(code)}`);
  const google = config.google
    ? createGoogleSignIn({
        ...config.google,
        redirectUri: new URL('/api/auth/google/callback', config.publicUrl).toString(),
      })
    : undefined;
  const flowCookie = {
    path: '/api/auth/google',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.publicUrl.protocol === 'https:',
    signed: true,
  };

  app.get('/api/auth/google', async (request, reply) => {
    if (!google) return authError(reply, 'not_configured');
    try {
      const { url, flow } = await google.start();
      reply.setCookie(GOOGLE_FLOW_COOKIE, JSON.stringify(flow), { ...flowCookie, maxAge: GOOGLE_FLOW_TTL_S });
      return reply.redirect(url.toString());
    } catch (error) {
      request.log.warn({ err: error }, 'Google sign-in could not start');
      return authError(reply, 'failed');
    }
  });

  app.get('/api/auth/google/callback', async (request, reply) => {
    if (!google) return authError(reply, 'not_configured');
    const flow = readFlow(request.cookies[GOOGLE_FLOW_COOKIE], (v) => request.unsignCookie(v));
    reply.clearCookie(GOOGLE_FLOW_COOKIE, { path: flowCookie.path });
    if (!flow) return authError(reply, 'failed');
    try {
      const callbackUrl = new URL(request.url, config.publicUrl);
      const profile = await google.finish(callbackUrl, flow);
      if (!profile.emailVerified && profile.email) return authError(reply, 'unverified_email');
      const user = await signInWithGoogle(db, profile);
      if (!user) return authError(reply, 'no_email');
      await app.sessions.forgetUser(user.id);
      await app.sessions.start(reply, user.id, 'google');
      return reply.redirect(homePathOf(user));
    } catch (error) {
      request.log.warn({ err: error }, 'Google sign-in failed');
      return authError(reply, 'failed');
    }
  });
}

function readFlow(
  raw: string | undefined,
  unsign: (value: string) => { valid: boolean; value: string | null },
): GoogleFlow | undefined {
  if (!raw) return undefined;
  const unsigned = unsign(raw);
  if (!unsigned.valid || !unsigned.value) return undefined;
  try {
    const flow = JSON.parse(unsigned.value) as Partial<GoogleFlow>;
    if (typeof flow.state === 'string' && typeof flow.nonce === 'string' && typeof flow.verifier === 'string') {
      return flow as GoogleFlow;
    }
  } catch {
    // fall through: a malformed cookie is the same as none
  }
  return undefined;
}
