import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { PASSWORD_RESET_TTL_MS, VERIFICATION_TTL_MS } from '@shared/account';
import type { Tx } from '../../platform/db/client';
import { emailVerificationTokens, passwordResetTokens, users, type OutboxEmailRow } from '../../platform/db/schema';
import type { EmailPreparer } from '../../platform/email/outbox';
import { newToken } from '../../platform/ids';
import type { PasswordResetData } from './templates/password-reset';
import type { VerifyEmailData } from './templates/verify-email';

/** What the database keeps of an emailed link's token: its SHA-256, never the token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * A secret link made as its email goes out (decision 081): the token exists only in the email,
 * its hash only in `table` (the two token tables share this shape), and the outbox keeps the
 * email with the token masked. Answers the link and the token to mask.
 */
async function mintEmailedLink(
  tx: Tx,
  table: typeof emailVerificationTokens | typeof passwordResetTokens,
  row: OutboxEmailRow,
  ttlMs: number,
  path: string,
  publicUrl: URL,
  /** What else the table binds the link to (a reset link: the password it was sent for). */
  boundTo: { passwordFingerprint?: string } = {},
): Promise<{ url: string; token: string }> {
  const token = newToken();
  await tx.insert(table).values({
    tokenHash: hashToken(token),
    userId: row.userId,
    email: row.toAddress,
    expiresAt: new Date(Date.now() + ttlMs),
    ...boundTo,
  });
  return { url: new URL(`${path}?token=${token}`, publicUrl).toString(), token };
}

/** The link that confirms an address: the account's own, or the new one of an email change (CONTRACT §11). */
export const mintVerificationLink: EmailPreparer<VerifyEmailData> = async (row, tx, config) => {
  const [user] = await tx
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
  const { url, token } = await mintEmailedLink(tx, emailVerificationTokens, row, VERIFICATION_TTL_MS, '/api/verify-email', config.publicUrl);
  return { send: { firstName: user.firstName, verifyUrl: url, change }, secrets: [token] };
};

/**
 * What a reset link is bound to besides its address: the password hash the account has. Every new
 * password is hashed with a new salt, so any change of it — by the account, by a reset, by
 * ADMIN_PASSWORD at start-up — ends the links sent before it, without each of them having to
 * remember to. Only this digest is stored with the link, never the hash itself.
 */
export const passwordFingerprint = (passwordHash: string | null) => createHash('sha256').update(passwordHash ?? '').digest('base64url');

/** The password reset link (CONTRACT §11): one hour, once, and only while the password is the one it was sent for. */
export const mintPasswordResetLink: EmailPreparer<PasswordResetData> = async (row, tx, config) => {
  const [user] = await tx
    .select({ email: users.email, firstName: users.firstName, password: users.password })
    .from(users)
    .where(eq(users.id, row.userId))
    .limit(1);
  if (!user || user.email !== row.toAddress) return { skip: 'The account has another address now' };
  const { url, token } = await mintEmailedLink(tx, passwordResetTokens, row, PASSWORD_RESET_TTL_MS, '/reset-password', config.publicUrl, {
    passwordFingerprint: passwordFingerprint(user.password),
  });
  return { send: { firstName: user.firstName, resetUrl: url }, secrets: [token] };
};
