import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client';
import { emailVerificationTokens, users, type UserRow } from '../../platform/db/schema';
import { hashToken } from '../../domain/email/emailed-links';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { isUniqueViolation } from '../../platform/public-user';

/**
 * Queues the link that confirms a new address (PUT /api/account/email); it goes to that address,
 * and the account's address changes only when it is opened.
 */
export async function queueEmailChangeVerification(
  tx: Tx,
  outbox: EmailQueue,
  user: Pick<UserRow, 'id' | 'firstName'>,
  newEmail: string,
): Promise<void> {
  await outbox.queue(tx, {
    kind: 'verify_email',
    userId: user.id,
    toAddress: newEmail,
    dedupeKey: `verify_email:${user.id}:${newEmail}`,
    data: { firstName: user.firstName, change: true },
  });
}

/** Queues the verification email; while one waits, asking again adds nothing. */
export async function queueVerificationEmail(tx: Tx, outbox: EmailQueue, user: Pick<UserRow, 'id' | 'firstName'>): Promise<void> {
  await outbox.queue(tx, {
    kind: 'verify_email',
    userId: user.id,
    dedupeKey: `verify_email:${user.id}`,
    data: { firstName: user.firstName },
  });
}

/**
 * GET /api/verify-email: marks the address verified when the token is known, unused, unexpired
 * and for the address the account still has — or, for an email change, makes the new address
 * the account's (CONTRACT §11). Answers the user whose address it confirmed, or null.
 */
export async function verifyEmailToken(db: Db, token: string): Promise<string | null> {
  try {
    return await confirmToken(db, token);
  } catch (error) {
    // The new address was taken by another account meanwhile: the link can no longer work.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

async function confirmToken(db: Db, token: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(emailVerificationTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(emailVerificationTokens.tokenHash, hashToken(token)),
          isNull(emailVerificationTokens.usedAt),
          gt(emailVerificationTokens.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: emailVerificationTokens.userId, email: emailVerificationTokens.email });
    if (!used) return null;
    const [verified] = await tx
      .update(users)
      .set({ emailVerified: true, updatedAt: sql`now()` })
      .where(and(eq(users.id, used.userId), eq(users.email, used.email)))
      .returning({ id: users.id });
    if (verified) return verified.id;
    const [changed] = await tx
      .update(users)
      .set({ email: used.email, pendingEmail: null, emailVerified: true, updatedAt: sql`now()` })
      .where(and(eq(users.id, used.userId), eq(users.pendingEmail, used.email)))
      .returning({ id: users.id });
    return changed?.id ?? null;
  });
}

/** Spent and expired links are of no further use. */
export async function pruneVerificationTokens(db: Db): Promise<number> {
  const removed = await db
    .delete(emailVerificationTokens)
    .where(or(lt(emailVerificationTokens.expiresAt, sql`now()`), sql`${emailVerificationTokens.usedAt} is not null`))
    .returning({ hash: emailVerificationTokens.tokenHash });
  return removed.length;
}
