import { and, count, desc, eq, gt, isNull, max, or, sql } from 'drizzle-orm';
import type { ArtistActivityKind, UnseenActivity } from '@shared/artist-activity';
import { liveEventSchema } from '@shared/live-event-schema';
import type { Db, Tx } from '../../platform/db/client';
import { artistActivity, artistActivitySeen, submissions, users } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { notifyOnCommit } from '../../platform/realtime/hub';

/**
 * The team hears the artist (issue 33 part 4, decision 174): the one verb every feature calls
 * when an artist comments on a cut, replies, approves a cut, signs an agreement or withdraws.
 * Written in the caller's transaction; `artist_activity` reaches every admin's socket when it
 * commits (never for a change that rolled back), and the desk's and header's badges count it
 * until the admin has seen the submission.
 */
export async function recordArtistActivity(
  tx: Tx | Db,
  activity: { submissionId: string; songTitle: string; kind: ArtistActivityKind; at: Date },
): Promise<void> {
  await tx.insert(artistActivity).values({
    id: newId(),
    submissionId: activity.submissionId,
    songTitle: activity.songTitle,
    kind: activity.kind,
    createdAt: activity.at,
  });
  const admins = await tx.select({ id: users.id }).from(users).where(and(eq(users.role, 'admin'), isNull(users.deletedAt)));
  if (admins.length === 0) return;
  const event = liveEventSchema.parse({ type: 'artist_activity', submissionId: activity.submissionId, kind: activity.kind, at: activity.at.toISOString() });
  await notifyOnCommit(
    tx,
    admins.map((a) => a.id),
    event,
  );
}

/** What this admin has not seen yet: activity newer than their last look at its submission. */
export async function listUnseenActivity(db: Db, adminId: string): Promise<UnseenActivity> {
  const rows = await db
    .select({
      submissionId: artistActivity.submissionId,
      songTitle: max(artistActivity.songTitle),
      gone: sql<boolean>`bool_and(${submissions.id} is null)`,
      count: count(),
      latestAt: max(artistActivity.createdAt),
      // The kind of the latest, for the badge's words (ties: any of them).
      latestKind: sql<ArtistActivityKind>`(array_agg(${artistActivity.kind} order by ${artistActivity.createdAt} desc))[1]`,
    })
    .from(artistActivity)
    .leftJoin(submissions, eq(submissions.id, artistActivity.submissionId))
    .leftJoin(artistActivitySeen, and(eq(artistActivitySeen.submissionId, artistActivity.submissionId), eq(artistActivitySeen.userId, adminId)))
    .where(or(isNull(artistActivitySeen.seenAt), gt(artistActivity.createdAt, artistActivitySeen.seenAt)))
    .groupBy(artistActivity.submissionId)
    .orderBy(desc(max(artistActivity.createdAt)));
  const unseen = rows.map((row) => ({
    submissionId: row.submissionId,
    songTitle: row.songTitle ?? '',
    gone: Boolean(row.gone),
    count: Number(row.count),
    latestKind: row.latestKind,
    latestAt: new Date(row.latestAt ?? 0).toISOString(),
  }));
  return { total: unseen.reduce((sum, s) => sum + s.count, 0), submissions: unseen };
}

/** The admin has looked at these submissions: what they hold until `at` is no longer new to them. */
export async function markActivitySeen(db: Db, adminId: string, submissionIds: string[], at: Date): Promise<void> {
  if (submissionIds.length === 0) return;
  await db
    .insert(artistActivitySeen)
    .values([...new Set(submissionIds)].map((submissionId) => ({ userId: adminId, submissionId, seenAt: at })))
    .onConflictDoUpdate({
      target: [artistActivitySeen.userId, artistActivitySeen.submissionId],
      set: { seenAt: sql`greatest(${artistActivitySeen.seenAt}, excluded.seen_at)` },
    });
}
