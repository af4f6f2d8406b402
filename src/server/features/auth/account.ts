import { and, eq, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import { ACCOUNT_TEXTS } from '@shared/auth-texts';
import { ARTIST_DELETABLE_STATUSES } from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import {
  emailVerificationTokens,
  messages,
  notificationSettings,
  outboxEmails,
  passwordResetTokens,
  paymentRecords,
  submissions,
  uploads,
  users,
  type UserRow,
} from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { apiError } from '../../platform/errors';
import { findUserByEmail } from './accounts';
import { queueEmailChangeVerification } from './email-verification';
import { hashPassword, verifyPassword } from './password';

/**
 * The account's own changes (CONTRACT §11): password, email address, deletion. Each checks the
 * current password first; a wrong one is a 400 and changes nothing.
 */

async function assertPassword(user: UserRow, password: string, wrong: string): Promise<void> {
  if (!user.password) throw apiError('no_password', ACCOUNT_TEXTS.noPasswordYet);
  if (!(await verifyPassword(password, user.password))) throw apiError('wrong_password', wrong);
}

/** PUT /api/account/password; the caller ends every other session. */
export async function changePassword(db: Db, user: UserRow, currentPassword: string, newPassword: string): Promise<void> {
  await assertPassword(user, currentPassword, ACCOUNT_TEXTS.wrongCurrentPassword);
  await db
    .update(users)
    .set({ password: await hashPassword(newPassword), updatedAt: sql`now()` })
    .where(eq(users.id, user.id));
}

/**
 * PUT /api/account/email: remembers the new address and sends it a verification link; the
 * account's address changes when that link is opened (email-verification.ts).
 */
export async function requestEmailChange(
  db: Db,
  outbox: EmailQueue,
  user: UserRow,
  newEmail: string,
  currentPassword: string,
): Promise<void> {
  await assertPassword(user, currentPassword, ACCOUNT_TEXTS.wrongCurrentPassword);
  const email = newEmail.trim().toLowerCase();
  if (email === user.email) return;
  const owner = await findUserByEmail(db, email);
  if (owner) throw apiError('email_taken');
  await db.transaction(async (tx) => {
    await tx.update(users).set({ pendingEmail: email, updatedAt: sql`now()` }).where(eq(users.id, user.id));
    await queueEmailChangeVerification(tx, outbox, user, email);
  });
}

/** What a deletion leaves for the caller to do once it is committed. */
interface DeletedAccount {
  /** Upload ids whose bytes are to be removed from the store. */
  removedUploadIds: string[];
  keptSubmissions: number;
  deletedSubmissions: number;
}

/**
 * DELETE /api/account (CONTRACT §11), in one transaction: every submission not yet approved goes
 * with its files; approved and later ones stay with the label under the licence; payment records
 * stay without personal data; messages, preferences, tokens and kept emails go; the user row is
 * emptied of every personal field and can never sign in again. It stays only as the anonymous
 * owner of the licensed work (docs/decisions/120-account-deletion-keeps-an-anonymous-owner.md).
 */
export async function deleteAccount(db: Db, user: UserRow, password: string): Promise<DeletedAccount> {
  await assertPassword(user, password, ACCOUNT_TEXTS.wrongPassword);
  return db.transaction(async (tx) => {
    const [locked] = await tx.select({ role: users.role, deletedAt: users.deletedAt }).from(users).where(eq(users.id, user.id)).for('update');
    if (!locked || locked.deletedAt) throw apiError('unauthorized');
    if (locked.role === 'admin') await assertAnotherAdmin(tx, user.id, ACCOUNT_TEXTS.lastAdminDeletion);

    const deletable = and(eq(submissions.userId, user.id), inArray(submissions.status, [...ARTIST_DELETABLE_STATUSES]));
    await tx
      .insert(paymentRecords)
      .select(
        tx
          .select({
            stripePaymentIntentId: submissions.stripePaymentIntentId,
            submissionId: submissions.id,
            pricingTier: submissions.pricingTier,
            amount: submissions.amount,
            paymentStatus: submissions.paymentStatus,
            paidAt: submissions.updatedAt,
            recordedAt: sql`now()`.as('recorded_at'),
          })
          .from(submissions)
          .where(and(deletable, sql`${submissions.stripePaymentIntentId} is not null`)),
      )
      .onConflictDoNothing();
    const kept = tx
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.userId, user.id), notInArray(submissions.status, [...ARTIST_DELETABLE_STATUSES])));
    const files = await tx
      .delete(uploads)
      .where(and(eq(uploads.userId, user.id), or(isNull(uploads.submissionId), notInArray(uploads.submissionId, kept))))
      .returning({ id: uploads.id });
    const deleted = await tx.delete(submissions).where(deletable).returning({ id: submissions.id });
    const [{ n: keptSubmissions } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(submissions)
      .where(eq(submissions.userId, user.id));

    await tx.delete(messages).where(or(eq(messages.fromUserId, user.id), eq(messages.toUserId, user.id)));
    await tx.delete(notificationSettings).where(eq(notificationSettings.userId, user.id));
    await tx.delete(outboxEmails).where(eq(outboxEmails.userId, user.id));
    await tx.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, user.id));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    await tx.update(users).set(ANONYMOUS).where(eq(users.id, user.id));
    return { removedUploadIds: files.map((f) => f.id), keptSubmissions, deletedSubmissions: deleted.length };
  });
}

/** Every personal field of a user row, cleared. */
const ANONYMOUS = {
  email: null,
  pendingEmail: null,
  password: null,
  googleId: null,
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  artistName: null,
  country: null,
  instagramHandle: null,
  tiktokHandle: null,
  twitterHandle: null,
  facebookHandle: null,
  youtubeHandle: null,
  spotifyHandle: null,
  soundcloudHandle: null,
  applemusicHandle: null,
  amazonmusicHandle: null,
  deezerHandle: null,
  bandcampHandle: null,
  otherPlatforms: null,
  role: 'user' as const,
  emailVerified: false,
  deletedAt: sql`now()`,
  updatedAt: sql`now()`,
} satisfies Partial<Record<keyof typeof users.$inferInsert, unknown>>;

/**
 * Refuses (409) when `userId` is the only admin left. Every admin row is locked first, so two
 * admins demoting each other at the same moment cannot both succeed.
 */
export async function assertAnotherAdmin(tx: Tx, userId: string, message: string): Promise<void> {
  const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).orderBy(users.id).for('update');
  if (!admins.some((a) => a.id !== userId)) throw apiError('last_admin', message);
}
