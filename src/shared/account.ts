import { TAX_PAPERS_KEPT_YEARS } from './payees';
import { z } from 'zod';
import { AUTH_MESSAGES, PASSWORD_MAX, PASSWORD_MIN, ROLES, newPasswordSchema as newPassword, type PublicUser } from './auth';
import { LICENSED_STATUSES, STATUS_LABELS } from './submissions';

/** The wire of CONTRACT §11 (accounts people can recover and own): both sides validate with it. */

/** A reset link works for one hour, once (CONTRACT §11). */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
/** A verification link works for 24 hours, once (CONTRACT §11). */
export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
/** Tokens in links are 43 characters of base64url; anything much longer is not one of ours. */
export const TOKEN_MAX = 200;

const email = z
  .string({ message: AUTH_MESSAGES.email })
  .trim()
  .max(254, AUTH_MESSAGES.email)
  .pipe(z.email({ message: AUTH_MESSAGES.email }));
/** The password someone already has: only its presence is checked here, the hash decides. */
const currentPassword = z
  .string({ message: 'Enter your current password' })
  .min(1, 'Enter your current password')
  .max(PASSWORD_MAX, 'Enter your current password');
const token = z.string({ message: 'The link is missing its token' }).min(1, 'The link is missing its token').max(TOKEN_MAX);

export const passwordResetRequestSchema = z.object({ email });
export const passwordResetConfirmSchema = z.object({ token, password: newPassword });
/** GET /api/password-reset?token=…: is the link still good (200) or spent/expired (invalid_reset_link)? */
export const passwordResetCheckSchema = z.object({ token });
export const changePasswordSchema = z.object({ currentPassword, newPassword });
export const changeEmailSchema = z.object({ email, currentPassword });
export const deleteAccountSchema = z.object({ password: currentPassword });

/** The reset form adds a confirmation, which is never sent. */
export const resetPasswordFormSchema = z
  .object({ password: newPassword, confirmPassword: z.string().min(PASSWORD_MIN, AUTH_MESSAGES.confirmPassword) })
  .refine((v) => v.password === v.confirmPassword, { message: AUTH_MESSAGES.passwordsDontMatch, path: ['confirmPassword'] });
export const changePasswordFormSchema = z
  .object({ currentPassword, newPassword, confirmPassword: z.string().min(PASSWORD_MIN, AUTH_MESSAGES.confirmPassword) })
  .refine((v) => v.newPassword === v.confirmPassword, { message: AUTH_MESSAGES.passwordsDontMatch, path: ['confirmPassword'] });

/** One signed-in session as the account screen lists it (CONTRACT §11). */
export interface AccountSession {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  current: boolean;
}

/** GET /api/admin/users */
export const TEAM_PAGE_SIZE = 25;
export const adminUsersQuerySchema = z.object({
  q: z.string().trim().max(200, 'Search must be at most 200 characters').optional().default(''),
  page: z.coerce
    .number({ message: 'page must be a whole number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(100_000, 'page must be at most 100000')
    .optional()
    .default(1),
});
export const roleChangeSchema = z.object({ role: z.enum(ROLES, { message: `role must be one of: ${ROLES.join(', ')}` }) });

export type AdminUser = Pick<
  PublicUser,
  'id' | 'email' | 'firstName' | 'lastName' | 'artistName' | 'role' | 'authProvider' | 'emailVerified' | 'createdAt'
> & { submissionCount: number };

export interface AdminUsersPage {
  users: AdminUser[];
  total: number;
  /** Admins in the whole product, not just this page: with one left, "Remove admin" is disabled (issue 23). */
  adminCount: number;
  page: number;
  pageSize: number;
}

/**
 * What "Download my data" holds (CONTRACT §11, src/server/features/auth/account-export.ts): the
 * settings page and the Privacy Policy say exactly this.
 */
export const EXPORT_TEXTS = {
  /** What account.json lists. */
  records:
    'your profile, submissions and their status history, every delivered version of your video with both sides’ comments and your approval, publications, bonus earnings and payouts with each owner’s share, your tax form (the identification number shown as its last four digits) and yearly statements, payments with their invoices and credit notes, and messages',
  /** What else the ZIP holds. */
  files: 'every file you uploaded or were sent in a message, each invoice and credit note, your tax form and each yearly bonus statement as a PDF',
} as const;

/**
 * What account deletion removes and what it keeps (CONTRACT §11): the deletion screen and the
 * Privacy Policy say exactly this.
 */
export const DELETION_TEXTS = {
  goes: [
    'Your profile: name, email address, password, artist name, country and social links.',
    'Every submission that has not been approved yet (drafts, pending, under review, unpaid, rejected, archived), with its files.',
    'Before they go, the ones you paid for and that were not delivered are refunded in full to your card, each with a credit note, as a withdrawal would be; a payment not made yet is cancelled.',
    'Every file you uploaded that is not part of an approved submission.',
    'Your messages with the label team, your email preferences and the emails we keep a copy of.',
    'Every session: you are signed out on every device.',
  ],
  stays: [
    `Approved submissions (${LICENSED_STATUSES.map((status) => STATUS_LABELS[status].toLowerCase()).join(', ')}) stay with the label under the licence you granted, detached from your account and without your email address or name; the artist name and song title printed on the work stay.`,
    'Payment records stay for the label’s accounts, without your name or email address; the invoices and credit notes issued to you stay as they were issued, as tax law asks.',
    `Your tax form and your bonus payments with their yearly statements stay for ${TAX_PAPERS_KEPT_YEARS} years after your last payment, as a tax authority may ask for them; the tax identification number stays encrypted.`,
  ],
  /** The confirmation dialog (CONTRACT §21: the amount is named before the artist confirms). */
  confirmTitle: 'Delete your account?',
  confirmBody: 'Your account and everything listed as deleted go for good. You will be signed out on every device.',
  refundNotice: (amount: string) => `You will be refunded ${amount}.`,
  refundOf: (songTitle: string, amount: string) => `${amount} for "${songTitle}"`,
  confirm: 'Delete my account',
  deleted: 'Your account and your data have been deleted.',
  deletedWithRefund: (amount: string) => `Your account and your data have been deleted, and ${amount} is refunded to your card.`,
} as const;

/**
 * GET /api/account/deletion: what deleting the account now would refund (CONTRACT §21), each
 * paid, undelivered submission still the artist's to withdraw, and the sum ("$49.00"; null: none).
 */
export interface AccountDeletionPreview {
  refunds: { submissionId: string; songTitle: string; amount: string }[];
  refundTotal: string | null;
}
