import { PAYEE_LINK_TTL_MS } from '@shared/payees';
import { payeeLinks } from '../../platform/db/schema';
import type { EmailPreparer } from '../../platform/email/outbox';
import { newToken } from '../../platform/ids';
import { hashToken } from './emailed-links';
import type { PayeeLinkData } from './templates/payee';

const longDate = (at: Date) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(at);

/**
 * A payee's link (CONTRACT §24), made as its email goes out like every secret link (decision 081):
 * the token exists only in the email, its SHA-256 in `payee_links`, valid 30 days from sending.
 * Each email's link works on its own: a fresh one does not end the ones sent before.
 */
export const mintPayeeLink: EmailPreparer<PayeeLinkData> = async (row, tx, config) => {
  const data = row.templateData as Omit<PayeeLinkData, 'payeeUrl' | 'validUntil'>;
  const token = newToken();
  const expiresAt = new Date(Date.now() + PAYEE_LINK_TTL_MS);
  await tx.insert(payeeLinks).values({ tokenHash: hashToken(token), payeeId: data.payeeId, expiresAt });
  const payeeUrl = new URL(`/payee/${token}`, config.publicUrl).toString();
  return { send: { ...data, payeeUrl, validUntil: longDate(expiresAt) }, secrets: [token] };
};
