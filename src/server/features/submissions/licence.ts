import { createHash } from 'node:crypto';
import { TERMS_VERSION, termsPlainText } from '@shared/terms';
import type { Db } from '../../platform/db/client';
import { termsTexts } from '../../platform/db/schema';

const TERMS_TEXT = termsPlainText();
const TERMS_HASH = createHash('sha256').update(TERMS_TEXT, 'utf8').digest('hex');

/**
 * The licence record (CONTRACT §13): the exact Terms text the artist accepts by sending a
 * submission is kept once by its SHA-256 (with its version), and the submission points at it with
 * the moment of acceptance. Older versions stay, so every submission can show what it accepted.
 *
 * The text this server shows is stored when it starts (`keepCurrentTerms`, before it answers any
 * request), and rows are never deleted, so a submission only needs the hash: sending 4.7 KB of
 * Terms with every submission cost a round trip's worth of bytes for nothing.
 */
export async function keepCurrentTerms(db: Db): Promise<void> {
  await db.insert(termsTexts).values({ hash: TERMS_HASH, version: TERMS_VERSION, text: TERMS_TEXT }).onConflictDoNothing();
}

/** What a submission sent now records of the Terms it accepted. */
export function acceptedTerms(now: Date): { termsHash: string; termsAcceptedAt: Date } {
  return { termsHash: TERMS_HASH, termsAcceptedAt: now };
}
