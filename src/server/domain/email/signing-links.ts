import { and, eq, isNull } from 'drizzle-orm';
import { SIGNING_LINK_TTL_MS } from '@shared/rights';
import { agreementSignatures } from '../../platform/db/schema';
import type { EmailPreparer } from '../../platform/email/outbox';
import { newToken } from '../../platform/ids';
import { hashToken } from './emailed-links';
import type { SigningInvitationData } from './templates/agreement';

const longDate = (at: Date) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(at);

/**
 * A co-owner's signing link (CONTRACT §22), made as its email goes out like every secret link
 * (decision 081): the token exists only in the email, its SHA-256 on the owner's signature row,
 * valid 30 days from sending. An owner who has signed meanwhile gets no email.
 */
export const mintSigningLink: EmailPreparer<SigningInvitationData> = async (row, tx, config) => {
  const data = row.templateData as Omit<SigningInvitationData, 'signUrl' | 'validUntil'>;
  const token = newToken();
  const expiresAt = new Date(Date.now() + SIGNING_LINK_TTL_MS);
  const minted = await tx
    .update(agreementSignatures)
    .set({ tokenHash: hashToken(token), tokenExpiresAt: expiresAt, tokenUsedAt: null })
    .where(and(eq(agreementSignatures.id, data.signatureId), isNull(agreementSignatures.signedAt)))
    .returning({ id: agreementSignatures.id });
  if (minted.length === 0) return { skip: 'The owner has signed already, or the agreement is gone' };
  const signUrl = new URL(`/sign/${token}`, config.publicUrl).toString();
  return { send: { ...data, signUrl, validUntil: longDate(expiresAt) }, secrets: [token] };
};
