import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { passwordResetTokens, users } from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { hashToken } from '../../domain/email/emailed-links';
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
 * requests racing with one token cannot both succeed), sets the password, spends every other
 * reset link of the user. Answers the user and the address the link went to; the caller ends
 * every session.
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<{ userId: string; email: string }> {
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: passwordResetTokens.userId, email: passwordResetTokens.email });
    if (!used) throw apiError('invalid_reset_link');
    const [user] = await tx
      .update(users)
      .set({
        password: hash,
        // Opening the link proved the mailbox, as a verification link would have.
        emailVerified: sql`${users.emailVerified} or ${users.email} = ${used.email}`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
      .returning({ id: users.id });
    if (!user) throw apiError('invalid_reset_link');
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResetTokens.userId, used.userId), isNull(passwordResetTokens.usedAt)));
    return { userId: user.id, email: used.email };
  });
}

/** Spent and expired links are of no further use. */
export async function prunePasswordResetTokens(db: Db): Promise<number> {
  const removed = await db
    .delete(passwordResetTokens)
    .where(or(lt(passwordResetTokens.expiresAt, sql`now()`), sql`${passwordResetTokens.usedAt} is not null`))
    .returning({ hash: passwordResetTokens.tokenHash });
  return removed.length;
}
