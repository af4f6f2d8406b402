import { createHash } from 'node:crypto';
import { TERMS_VERSION, termsPlainText } from '@shared/terms';
import type { Tx } from '../../platform/db/client';
import { termsTexts } from '../../platform/db/schema';

const TERMS_TEXT = termsPlainText();
const TERMS_HASH = createHash('sha256').update(TERMS_TEXT, 'utf8').digest('hex');

/**
 * The licence record (CONTRACT §13): the exact Terms text the artist accepts by sending a
 * submission is kept once by its SHA-256 (with its version), and the submission points at it with
 * the moment of acceptance. Older versions stay, so every submission can show what it accepted.
 */
export async function recordAcceptedTerms(tx: Tx, now: Date): Promise<{ termsHash: string; termsAcceptedAt: Date }> {
  await tx.insert(termsTexts).values({ hash: TERMS_HASH, version: TERMS_VERSION, text: TERMS_TEXT }).onConflictDoNothing();
  return { termsHash: TERMS_HASH, termsAcceptedAt: now };
}
