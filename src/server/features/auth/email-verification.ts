import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client';
import { emailVerificationTokens, users, type UserRow } from '../../platform/db/schema';
import type { EmailPreparer, EmailQueue } from '../../platform/email/outbox';
import { newToken } from '../../platform/ids';
import { isUniqueViolation } from '../../platform/public-user';
import { VERIFICATION_TTL_MS } from '@shared/account';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

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
    data: { firstName: user.firstName, verifyUrl: '', change: true },
  });
}

/** Queues the verification email; while one waits, asking again adds nothing. */
export async function queueVerificationEmail(tx: Tx, outbox: EmailQueue, user: Pick<UserRow, 'id' | 'firstName'>): Promise<void> {
  await outbox.queue(tx, {
    kind: 'verify_email',
    userId: user.id,
    dedupeKey: `verify_email:${user.id}`,
    data: { firstName: user.firstName, verifyUrl: '' },
  });
}

/**
 * The link is made when the email goes out, so the token exists only in the email and its hash
 * only in the database; the outbox keeps the email with the link masked.
 */
export function mintVerificationLink(publicUrl: URL): EmailPreparer {
  return async (row, db) => {
    const [user] = await db
      .select({ emailVerified: users.emailVerified, email: users.email, pendingEmail: users.pendingEmail, firstName: users.firstName })
      .from(users)
      .where(eq(users.id, row.userId))
      .limit(1);
    if (!user) return { skip: 'The account is gone' };
    const change = user.pendingEmail !== null && user.pendingEmail === row.toAddress;
    if (!change) {
      if (user.emailVerified) return { skip: 'The address is already confirmed' };
      if (user.email !== row.toAddress) return { skip: 'The account has another address now' };
    }
    const token = newToken();
    await db.insert(emailVerificationTokens).values({
      tokenHash: hashToken(token),
      userId: row.userId,
      email: row.toAddress,
      expiresAt: new Date(Date.now() + VERIFICATION_TTL_MS),
    });
    const verifyUrl = new URL(`/api/verify-email?token=${token}`, publicUrl).toString();
    return { send: { firstName: user.firstName, verifyUrl, change }, secrets: [token] };
  };
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
