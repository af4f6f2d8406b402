import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { agreementSignatures, agreements, submissions } from '../platform/db/schema';
import { newId } from '../platform/ids';

/**
 * The rights a submission needs before it is published (CONTRACT §22), as if its artist had
 * signed alone and its track were in no Content ID: for tests of what comes after the gate.
 * The gate itself is tested in features/rights/rights.test.ts.
 */
export async function clearRights(db: Db, submissionId: string): Promise<void> {
  const text = `Licence agreement of ${submissionId}`;
  const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
  await db.update(submissions).set({ contentId: 'no' }).where(eq(submissions.id, submissionId));
  const made = await db.insert(agreements).values({ submissionId, text, sha256 }).onConflictDoNothing().returning();
  if (made.length === 0) return;
  await db.insert(agreementSignatures).values({
    id: newId(),
    submissionId,
    ownerIndex: 0,
    ownerName: 'Artist',
    role: 'artist',
    share: '100.00',
    signedName: 'Artist',
    signedAt: new Date(),
    sha256,
  });
}
