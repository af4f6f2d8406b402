import { and, eq, inArray, isNotNull, isNull, not, notInArray, or, sql } from 'drizzle-orm';
import type { AccountDeletionPreview } from '@shared/account';
import { ACCOUNT_TEXTS } from '@shared/auth-texts';
import { ARTIST_DELETABLE_STATUSES, formatUsd } from '@shared/submissions';
import { EMPTY_SOCIALS } from '@shared/profile-fields';
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
import { isRefundOwed } from '../../domain/billing/refunds';
import { removeSubmission, type RemovalDeps } from '../../domain/submission/remove-submission';
import { apiError, HttpError } from '../../platform/errors';
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
  /** Submissions removed first, as withdrawals: refunded, or their open payment cancelled. */
  withdrawnSubmissions: number;
}

/** The account's submissions still the artist's to withdraw (CONTRACT §12). */
const withdrawableOf = (userId: string) => and(eq(submissions.userId, userId), inArray(submissions.status, [...ARTIST_DELETABLE_STATUSES]));

/** GET /api/account/deletion: what a deletion now would refund, for the page to name before the artist confirms (CONTRACT §21). */
export async function previewAccountDeletion(db: Db, userId: string): Promise<AccountDeletionPreview> {
  const rows = await db.select().from(submissions).where(withdrawableOf(userId)).orderBy(submissions.createdAt);
  const owed = rows.filter(isRefundOwed);
  const total = owed.reduce((sum, row) => sum + Math.round(Number(row.amount ?? 0) * 100), 0);
  return {
    refunds: owed.map((row) => ({ submissionId: row.id, songTitle: row.songTitle, amount: formatUsd(row.amount ?? 0) })),
    refundTotal: owed.length ? formatUsd(total / 100) : null,
  };
}

/**
 * DELETE /api/account (CONTRACT §11, §21). First, each submission with a payment at Stripe that is
 * still the artist's to withdraw is removed as its withdrawal would be, through the one removal
 * (domain/submission/remove-submission.ts): refunded in full with its credit note and the refund
 * email, or its open payment cancelled (decision 188). A refund Stripe refuses stops here: 502
 * `refund_failed` and the account stays (those refunded before stay refunded and gone, as
 * withdrawals). One approved meanwhile stays with the label like any approved work.
 *
 * Then, in one transaction: every other submission not yet approved goes with its files; approved
 * and later ones stay with the label under the licence; payment records stay without personal
 * data; messages, preferences, tokens and kept emails go (a refund's email not sent yet stays, to
 * be sent); the user row is emptied of every personal field and can never sign in again. It stays
 * only as the anonymous owner of the licensed work and of the invoices and credit notes issued to it
 * (docs/decisions/120-account-deletion-keeps-an-anonymous-owner.md, 170, 188).
 */
export async function deleteAccount(deps: RemovalDeps, user: UserRow, password: string): Promise<DeletedAccount> {
  const { db } = deps;
  await assertPassword(user, password, ACCOUNT_TEXTS.wrongPassword);
  // Refused before any money moves: the last admin keeps the account (checked again below, under the lock).
  if (user.role === 'admin') await db.transaction((tx) => assertAnotherAdmin(tx, user.id, ACCOUNT_TEXTS.lastAdminDeletion));
  const withPayment = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(withdrawableOf(user.id), isNotNull(submissions.stripePaymentIntentId)))
    .orderBy(submissions.id);
  let withdrawnSubmissions = 0;
  for (const { id } of withPayment) {
    try {
      await removeSubmission(deps, id, { kind: 'account', userId: user.id });
      withdrawnSubmissions++;
    } catch (error) {
      // Approved or deleted by the team meanwhile: approved work stays with the label, gone is gone.
      if (error instanceof HttpError && (error.code === 'submission_licensed' || error.code === 'submission_not_found')) continue;
      throw error;
    }
  }
  return db.transaction(async (tx) => {
    const [locked] = await tx.select({ role: users.role, deletedAt: users.deletedAt }).from(users).where(eq(users.id, user.id)).for('update');
    if (!locked || locked.deletedAt) throw apiError('unauthorized');
    if (locked.role === 'admin') await assertAnotherAdmin(tx, user.id, ACCOUNT_TEXTS.lastAdminDeletion);

    const deletable = withdrawableOf(user.id);
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
    // The refunds' emails not sent yet are the artist's news of their money: they still go out.
    const refundNotSent = and(eq(outboxEmails.kind, 'refund_issued'), eq(outboxEmails.status, 'pending'));
    await tx.delete(outboxEmails).where(and(eq(outboxEmails.userId, user.id), not(refundNotSent!)));
    await tx.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, user.id));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    await tx.update(users).set(ANONYMOUS).where(eq(users.id, user.id));
    return { removedUploadIds: files.map((f) => f.id), keptSubmissions, deletedSubmissions: deleted.length + withdrawnSubmissions, withdrawnSubmissions };
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
  ...EMPTY_SOCIALS,
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
