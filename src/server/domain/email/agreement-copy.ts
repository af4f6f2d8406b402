import { eq } from 'drizzle-orm';
import { agreementSignatures } from '../../platform/db/schema';
import type { EmailAttacher } from '../../platform/email/outbox';
import { renderSignedCopy } from '../submission/agreement';
import type { AgreementCopyData } from './templates/agreement';

/**
 * The attachment of a co-owner's copy (CONTRACT §22): the agreement PDF as it stood when they
 * signed, drawn from the stored rows, so a retry sends the same file. An agreement gone meanwhile
 * (its submission deleted) sends the email without it rather than failing it for a day.
 */
export const attachAgreementCopy: EmailAttacher<AgreementCopyData> = async (data, db, config) => {
  const [signature] = await db.select().from(agreementSignatures).where(eq(agreementSignatures.id, data.signatureId)).limit(1);
  if (!signature?.signedAt) return [];
  const { pdf } = await renderSignedCopy(db, signature, config.billing.legalName);
  return [{ filename: 'licence-agreement.pdf', contentType: 'application/pdf', content: pdf }];
};
