import { and, count, eq, isNotNull, isNull } from 'drizzle-orm';
import type { ScreenStatus } from '@shared/production';
import type { Db, Tx } from '../../platform/db/client';
import { publications, submissions } from '../../platform/db/schema';

/**
 * Which viral hits count toward the three (CONTRACT §13, §25), in one place: a hit counts from
 * `hitRecordedAt`, which is set only when the screen lets it (clear, confirmed, or no screen for a
 * count the team entered), and stops counting when the second look withdraws it.
 */
export const countingHit = and(eq(publications.viralHit, true), isNotNull(publications.hitRecordedAt), isNull(publications.hitWithdrawnAt));

export const countsAsHit = (p: Pick<typeof publications.$inferSelect, 'viralHit' | 'hitRecordedAt' | 'hitWithdrawnAt'>): boolean =>
  p.viralHit === true && p.hitRecordedAt !== null && p.hitWithdrawnAt === null;

/** A screen that lets a hit count at once: none (no analytics), clear, or confirmed by a person. */
export const screenLetsCount = (status: ScreenStatus | null): boolean => status === null || status === 'clear' || status === 'confirmed';

/** The artist's hits that count now. */
export async function countingHitsOf(tx: Tx | Db, userId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(publications)
    .innerJoin(submissions, eq(submissions.id, publications.submissionId))
    .where(and(eq(submissions.userId, userId), countingHit));
  return row?.n ?? 0;
}
