import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { passwordResetTokens, users } from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { hashToken, passwordFingerprint } from '../../domain/email/emailed-links';
import { apiError } from '../../platform/errors';
import { findUserByEmail } from './accounts';
import { hashPassword } from './password';

/**
 * Password reset (CONTRACT §11). The request route only enqueues a job with the address, the
 * same work whether or not an account has it, so the answer and its timing say nothing; the job
 * looks the address up and queues the email. The link's token is minted when the email goes
 * out, so it exists only in the email and its SHA-256 only in the database.
 */
export const PASSWORD_RESET_JOB = 'account.password-reset-request';

/** The job: queue the email when an account has this address; nothing otherwise. */
export async function queuePasswordResetEmail(db: Db, outbox: EmailQueue, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user || user.deletedAt) return;
  await db.transaction((tx) =>
    outbox.queue(tx, {
      kind: 'password_reset',
      userId: user.id,
      // Several requests while one email waits are one email.
      dedupeKey: `password_reset:${user.id}`,
      data: { firstName: user.firstName },
    }),
  );
}

/**
 * POST /api/password-reset/confirm: spends the token (once: a conditional UPDATE, so two
 * requests racing with one token cannot both succeed), checks the account still has the address
 * the link went to and the password it had then, sets the password, spends every other reset
 * link of the user. The account's row is locked first, so a password or address change cannot
 * slip in between, and two links of one account confirmed at once wait for each other instead of
 * locking each other's token. Answers the user and the address the link went to; the caller ends
 * every session.
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<{ userId: string; email: string }> {
  const hash = await hashPassword(password);
  const tokenHash = hashToken(token);
  return db.transaction(async (tx) => {
    const [link] = await tx.select({ userId: passwordResetTokens.userId }).from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, tokenHash));
    if (!link) throw apiError('invalid_reset_link');
    const [account] = await tx
      .select({ email: users.email, password: users.password })
      .from(users)
      .where(and(eq(users.id, link.userId), isNull(users.deletedAt)))
      .for('update');
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, sql`now()`)))
      .returning({ email: passwordResetTokens.email, passwordFingerprint: passwordResetTokens.passwordFingerprint });
    // Unknown, spent or expired; or the account moved to another address, or its password
    // changed, since the link was sent.
    if (!used || !account || account.email !== used.email || passwordFingerprint(account.password) !== used.passwordFingerprint) {
      throw apiError('invalid_reset_link');
    }
    await tx
      .update(users)
      // Opening the link proved the mailbox, which is the account's: it counts as verified.
      .set({ password: hash, emailVerified: true, updatedAt: sql`now()` })
      .where(eq(users.id, link.userId));
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResetTokens.userId, link.userId), isNull(passwordResetTokens.usedAt)));
    return { userId: link.userId, email: used.email };
  });
}

/**
 * GET /api/password-reset?token=…: whether the link would still set a password, read only (the
 * token is not spent). The same conditions as resetPassword: unspent, unexpired, and the account
 * still has the address the link went to and the password it had then. The reset page asks it
 * when it opens, so a used or expired link says so before the person types a password (issue 43).
 */
export async function isPasswordResetLinkUsable(db: Db, token: string): Promise<boolean> {
  const [link] = await db
    .select({ email: passwordResetTokens.email, fingerprint: passwordResetTokens.passwordFingerprint, accountEmail: users.email, password: users.password })
    .from(passwordResetTokens)
    .innerJoin(users, and(eq(users.id, passwordResetTokens.userId), isNull(users.deletedAt)))
    .where(and(eq(passwordResetTokens.tokenHash, hashToken(token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, sql`now()`)));
  return !!link && link.accountEmail === link.email && passwordFingerprint(link.password) === link.fingerprint;
}

/** Spent and expired links are of no further use. */
export async function prunePasswordResetTokens(db: Db): Promise<number> {
  const removed = await db
    .delete(passwordResetTokens)
    .where(or(lt(passwordResetTokens.expiresAt, sql`now()`), sql`${passwordResetTokens.usedAt} is not null`))
    .returning({ hash: passwordResetTokens.tokenHash });
  return removed.length;
}
