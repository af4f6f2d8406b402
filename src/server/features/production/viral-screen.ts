import type { ViralScreen, WithdrawnHit } from '@shared/production';
import type { publications } from '../../platform/db/schema';

type PublicationRow = typeof publications.$inferSelect;

/**
 * The screen as each side sees it (CONTRACT §25). The team sees who decided and why; the artist
 * sees the state and, after a rejection, its reason, never who decided nor a confirmation's note.
 */
export function screenView(row: PublicationRow, side: 'team' | 'artist'): ViralScreen | null {
  if (!row.screenStatus) return null;
  const decided = row.reviewedAt && (row.screenStatus === 'confirmed' || row.screenStatus === 'rejected');
  const review = decided
    ? {
        decision: row.screenStatus === 'confirmed' ? ('confirm' as const) : ('reject' as const),
        reason: row.reviewReason ?? '',
        at: row.reviewedAt!.toISOString(),
        by: row.reviewedBy,
      }
    : null;
  return {
    status: row.screenStatus,
    reasons: row.screenReasons ?? [],
    sources: row.screenSources ?? [],
    averageViewPercentage: row.averageViewPercentage,
    review: side === 'team' ? review : review?.decision === 'reject' ? { ...review, by: null } : null,
  };
}

export function withdrawnView(row: PublicationRow): WithdrawnHit | null {
  return row.hitWithdrawnAt
    ? { at: row.hitWithdrawnAt.toISOString(), reason: row.hitWithdrawnReason ?? '', views: row.secondLookViews ?? 0 }
    : null;
}
