import type { FastifyInstance } from 'fastify';
import {
  adminUsersQuerySchema,
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  passwordResetCheckSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  roleChangeSchema,
} from '@shared/account';
import { ACCOUNT_TEXTS } from '@shared/auth-texts';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { createStripeClient } from '../../platform/stripe/stripe-client';
import { apiError, parseInput, tooManyRequests } from '../../platform/errors';
import { hitCounter, RATE_LIMITS, rateLimited } from '../../platform/rate-limits';
import { requireAdmin, requireUser, userOf } from '../../platform/sessions';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { removeUploadBytes } from '../../platform/storage/upload-files';
import { changePassword, deleteAccount, previewAccountDeletion, requestEmailChange } from './account';
import { streamAccountExport } from './account-export';
import { isPasswordResetLinkUsable, PASSWORD_RESET_JOB, resetPassword } from './password-reset';
import { clearLoginFailures, setDeviceCookie } from './login-throttle';
import { changeUserRole, confirmUserEmail, listUsers } from './team';
import { attachment } from '../../platform/content-disposition';

interface AccountRouteOptions {
  db: Db;
  config: Config;
  storage: ObjectStorage;
}

/** Password reset (CONTRACT §11): public, the token decides. */
export async function passwordResetRoutes(app: FastifyInstance, { db, config }: AccountRouteOptions) {
  app.post('/api/password-reset', rateLimited('passwordResets', 'address'), async (request, reply) => {
    const email = parseInput(passwordResetRequestSchema, request.body).email.toLowerCase();
    const { max, windowMs } = RATE_LIMITS.passwordResetsPerEmail;
    const counted = await hitCounter(db, `password-reset-email:${email}`, windowMs);
    if (counted.hits > max) throw tooManyRequests(counted.ttlMs);
    // The same work whether or not an account has this address: the job finds out.
    await app.jobs.enqueue(PASSWORD_RESET_JOB, { email });
    return reply.status(202).send({ message: ACCOUNT_TEXTS.resetRequested });
  });

  // Read only: the reset page asks it on opening, so a spent link says so before any typing. In
  // the confirmations' budget: both answer whether a token is good.
  app.get('/api/password-reset', rateLimited('passwordResetConfirms', 'address'), async (request, reply) => {
    const { token } = parseInput(passwordResetCheckSchema, request.query);
    reply.header('cache-control', 'no-store');
    if (!(await isPasswordResetLinkUsable(db, token))) throw apiError('invalid_reset_link');
    return { usable: true };
  });

  app.post('/api/password-reset/confirm', rateLimited('passwordResetConfirms', 'address'), async (request, reply) => {
    const { token, password } = parseInput(passwordResetConfirmSchema, request.body);
    const { userId, email } = await resetPassword(db, token, password);
    await app.sessions.endUserSessions(userId);
    // Whoever was locked out by their own failed sign-ins has just proved the mailbox: they may
    // sign in now from where they are.
    await clearLoginFailures(db, email, request.ip);
    // This browser proved the mailbox: it is known to the account, so a guesser holding the
    // account at its ceiling does not keep it out (decision 173).
    setDeviceCookie(reply, email, config.publicUrl.protocol === 'https:');
    request.log.info({ userId }, 'password reset by email link');
    return { message: ACCOUNT_TEXTS.passwordReset };
  });
}

/** The signed-in person's own account (CONTRACT §11). Every route: 401 signed out. */
export async function accountRoutes(app: FastifyInstance, { db, storage, config }: AccountRouteOptions) {
  const stripe = config.stripe ? createStripeClient(config.stripe) : undefined;
  app.addHook('onRequest', requireUser);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.put('/api/account/password', rateLimited('accountChanges'), async (request) => {
    const { currentPassword, newPassword } = parseInput(changePasswordSchema, request.body);
    const user = userOf(request);
    await changePassword(db, user, currentPassword, newPassword);
    await app.sessions.endUserSessions(user.id, { except: request.sessionId! });
    request.log.info({ userId: user.id }, 'password changed');
    return { message: 'Password changed' };
  });

  app.put('/api/account/email', rateLimited('accountChanges'), async (request, reply) => {
    const { email, currentPassword } = parseInput(changeEmailSchema, request.body);
    const user = userOf(request);
    await requestEmailChange(db, app.outbox, user, email, currentPassword);
    await app.sessions.forgetUser(user.id);
    return reply.status(202).send({ message: ACCOUNT_TEXTS.emailChangeRequested });
  });

  app.get('/api/account/sessions', async (request) => app.sessions.listUserSessions(userOf(request).id, request.sessionId));

  app.delete<{ Params: { id: string } }>('/api/account/sessions/:id', async (request, reply) => {
    const ended = await app.sessions.endUserSession(userOf(request).id, request.params.id);
    if (!ended) throw apiError('session_not_found');
    if (ended.sid === request.sessionId) reply.clearCookie('sid', { path: '/' });
    return reply.status(204).send();
  });

  app.post('/api/account/sessions/revoke-others', async (request) => {
    const user = userOf(request);
    await app.sessions.endUserSessions(user.id, { except: request.sessionId! });
    return app.sessions.listUserSessions(user.id, request.sessionId);
  });

  app.get('/api/account/export', rateLimited('accountExports'), async (request, reply) => {
    const user = userOf(request);
    const stamp = new Date().toISOString().slice(0, 10);
    request.log.info({ userId: user.id }, 'account exported');
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', attachment(`account-${stamp}.zip`))
      .send(streamAccountExport(db, storage, user, config.billing, request.log));
  });

  // What the deletion would refund, named on the page before the artist confirms (CONTRACT §21).
  app.get('/api/account/deletion', async (request) => previewAccountDeletion(db, userOf(request).id));

  app.delete('/api/account', rateLimited('accountChanges'), async (request, reply) => {
    const { password } = parseInput(deleteAccountSchema, request.body);
    const user = userOf(request);
    const deps = { db, stripe, outbox: app.outbox, storage, seller: config.billing, log: request.log };
    const deleted = await deleteAccount(deps, user, password);
    await app.sessions.endUserSessions(user.id);
    reply.clearCookie('sid', { path: '/' });
    request.log.info(
      { userId: user.id, deletedSubmissions: deleted.deletedSubmissions, withdrawnSubmissions: deleted.withdrawnSubmissions, keptSubmissions: deleted.keptSubmissions },
      'account deleted',
    );
    try {
      await removeUploadBytes(storage, deleted.removedUploadIds);
    } catch (error) {
      // The rows are gone, so nothing refers to these bytes; the store's own sweep is the fallback.
      request.log.error({ err: error, uploadIds: deleted.removedUploadIds }, 'could not remove the files of a deleted account');
    }
    return reply.status(204).send();
  });
}

/** The team page (CONTRACT §11): who has an account, and who is an admin. 401 signed out, 403 for artists. */
export async function teamRoutes(app: FastifyInstance, { db }: AccountRouteOptions) {
  app.addHook('onRequest', requireAdmin);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/api/admin/users', async (request) => listUsers(db, parseInput(adminUsersQuerySchema, request.query)));

  app.patch<{ Params: { id: string } }>('/api/admin/users/:id', async (request) => {
    const { role } = parseInput(roleChangeSchema, request.body);
    const changed = await changeUserRole(db, request.params.id, role);
    await app.sessions.forgetUser(changed.id);
    request.log.info({ adminId: userOf(request).id, userId: changed.id, role }, 'role changed');
    return changed;
  });

  app.post<{ Params: { id: string } }>('/api/admin/users/:id/verify-email', async (request) => {
    if (app.outbox.smtpConfigured) throw apiError('mail_configured');
    const userId = request.params.id;
    const confirmed = await confirmUserEmail(db, userId);
    // Every instance drops the cached user: the artist's banner goes at their next page.
    await app.sessions.forgetUser(userId);
    request.log.info({ adminId: userOf(request).id, userId }, 'email address confirmed by an admin (no mail server)');
    return confirmed;
  });
}
