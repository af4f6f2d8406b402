import { asc, desc, eq, inArray } from 'drizzle-orm';
import { displayName } from '@shared/users';
import { viewsNeeded, type ArtistLedger, type BonusClawback, type BonusEarning, type BonusState, type EarningStatus } from '@shared/production';
import { VIRAL_HITS_NEEDED } from '@shared/production-texts';
import type { Db } from '../../platform/db/client';
import { bonusClawbacks, bonusEarnings, dailyViews, payees, payoutAccounts, publications, submissions, users } from '../../platform/db/schema';
import { markEarningOwed, markEarningPaid } from '../../domain/bonus/earning-payment';
import { countsAsHit } from '../../domain/bonus/counting-hits';
import { screenView, withdrawnView } from './viral-screen';
import type { EarningShare } from '@shared/payees';
import { ensureShares } from '../../domain/bonus/earning-shares';
import { sharesOfEarnings } from '../../domain/bonus/payees';

const cents = (amount: string) => Math.round(Number(amount) * 100);
const dollars = (c: number) => (c / 100).toFixed(2);

function toEarning(row: typeof bonusEarnings.$inferSelect, songTitle: string, shares: EarningShare[]): BonusEarning {
  return {
    submissionId: row.submissionId,
    songTitle,
    amount: row.amount,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    transferId: row.transferId,
    voidReason: row.voidReason,
    shares,
  };
}

/** CONTRACT §25: the artist's own clawback lines (those of their payee, §24), oldest first. */
async function clawbacksOf(db: Db, userId: string): Promise<BonusClawback[]> {
  const rows = await db
    .select({ line: bonusClawbacks, songTitle: submissions.songTitle })
    .from(bonusClawbacks)
    .innerJoin(payees, eq(payees.id, bonusClawbacks.payeeId))
    .innerJoin(submissions, eq(submissions.id, bonusClawbacks.submissionId))
    .where(eq(payees.userId, userId))
    .orderBy(asc(bonusClawbacks.createdAt), asc(bonusClawbacks.id));
  return rows.map(({ line, songTitle }) => ({
    id: line.id,
    submissionId: line.submissionId,
    songTitle,
    amount: dollars(line.amountCents),
    reason: line.reason,
    createdAt: line.createdAt.toISOString(),
    deductedAt: line.deductedAt?.toISOString() ?? null,
    deductedFrom: line.deductedFrom,
  }));
}

/** GET /api/bonus (CONTRACT §13): the artist's published tracks, hits and earnings. */
export async function bonusOf(db: Db, userId: string): Promise<Omit<BonusState, 'bonusPerTrack'>> {
  const tracks = await db
    .select({ publication: publications, songTitle: submissions.songTitle })
    .from(publications)
    .innerJoin(submissions, eq(submissions.id, publications.submissionId))
    .where(eq(submissions.userId, userId))
    .orderBy(desc(publications.publishedAt));
  const earnings = await db
    .select({ earning: bonusEarnings, songTitle: submissions.songTitle })
    .from(bonusEarnings)
    .innerJoin(submissions, eq(submissions.id, bonusEarnings.submissionId))
    .where(eq(bonusEarnings.userId, userId))
    .orderBy(asc(bonusEarnings.createdAt));
  const days =
    tracks.length === 0
      ? []
      : await db
          .select()
          .from(dailyViews)
          .where(inArray(dailyViews.submissionId, tracks.map((t) => t.publication.submissionId)))
          .orderBy(asc(dailyViews.day));
  const viralHits = tracks.filter((t) => countsAsHit(t.publication)).length;
  // Each earning's shares (CONTRACT §24): who is paid what, and what each waits for.
  const shares = await sharesOfEarnings(db, earnings.map((e) => e.earning.submissionId));
  return {
    viralHits,
    hitsNeeded: VIRAL_HITS_NEEDED,
    unlocked: viralHits >= VIRAL_HITS_NEEDED,
    tracks: tracks.map(({ publication: p, songTitle }) => ({
      submissionId: p.submissionId,
      songTitle,
      videoUrl: p.videoUrl,
      publishedAt: p.publishedAt.toISOString(),
      subscriberCount: p.subscriberCount,
      viewsNeeded: viewsNeeded(p.subscriberCount),
      checkAt: p.checkAt.toISOString(),
      viewsAt14Days: p.viewsAt14Days,
      viralHit: p.viralHit,
      dailyViews: days.filter((d) => d.submissionId === p.submissionId).map((d) => ({ date: d.day, views: d.views })),
      screen: screenView(p, 'artist'),
      countsAsHit: countsAsHit(p),
      withdrawn: withdrawnView(p),
    })),
    earnings: earnings.map((e) => toEarning(e.earning, e.songTitle, shares.get(e.earning.submissionId) ?? [])),
    clawbacks: await clawbacksOf(db, userId),
  };
}

/** GET /api/admin/bonus: every artist with a published track, their hits and their ledger. */
export async function allLedgers(db: Db): Promise<ArtistLedger[]> {
  const published = await db
    .selectDistinct({ userId: submissions.userId })
    .from(publications)
    .innerJoin(submissions, eq(submissions.id, publications.submissionId));
  const ids = published.map((p) => p.userId);
  if (ids.length === 0) return [];
  const artists = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, artistName: users.artistName, deletedAt: users.deletedAt })
    .from(users)
    .where(inArray(users.id, ids));
  // The artist's name as their newest work keeps it: what names a deleted account (issue 43).
  const keptNames = await db
    .selectDistinctOn([submissions.userId], { userId: submissions.userId, artistName: submissions.artistName })
    .from(submissions)
    .where(inArray(submissions.userId, ids))
    .orderBy(submissions.userId, desc(submissions.createdAt));
  const accounts = await db.select({ userId: payoutAccounts.userId, status: payoutAccounts.status }).from(payoutAccounts).where(inArray(payoutAccounts.userId, ids));
  const ledgers = await Promise.all(
    artists.map(async (artist): Promise<ArtistLedger> => {
      const state = await bonusOf(db, artist.id);
      // What is owed and paid, share by share (CONTRACT §24): a bonus half paid is half of each.
      const shares = state.earnings.flatMap((e) => (e.shares.length > 0 ? e.shares.map((s) => ({ status: s.status === 'paid' ? 'paid' : s.status === 'unpaid' ? 'owed' : 'void', amount: s.amount })) : [e]));
      const owed = shares.filter((e) => e.status === 'owed').reduce((sum, e) => sum + cents(e.amount), 0);
      const paid = shares.filter((e) => e.status === 'paid').reduce((sum, e) => sum + cents(e.amount), 0);
      const outstanding = state.clawbacks.filter((c) => c.deductedAt === null).reduce((sum, c) => sum + cents(c.amount), 0);
      return {
        userId: artist.id,
        artistName: displayName(artist) || keptNames.find((k) => k.userId === artist.id)?.artistName.trim() || artist.email || 'Unknown',
        email: artist.email,
        accountDeleted: artist.deletedAt !== null,
        viralHits: state.viralHits,
        unlocked: state.unlocked,
        owed: dollars(owed),
        paid: dollars(paid),
        earnings: state.earnings,
        clawbacks: state.clawbacks,
        outstandingClawback: dollars(outstanding),
        payoutAccount: accounts.find((a) => a.userId === artist.id)?.status ?? 'none',
      };
    }),
  );
  return ledgers.sort((a, b) => b.viralHits - a.viralHits || a.artistName.localeCompare(b.artistName));
}

/**
 * PATCH /api/admin/bonus/earnings/{submissionId}: the team marks an earning paid by hand (a label
 * that pays outside Stripe), or back to owed. Through the earning's one writer: marking paid what a
 * payout already paid (or is paying at this moment) is a 409 `already_paid` (CONTRACT §21).
 */
export async function markEarning(db: Db, adminId: string, submissionId: string, status: EarningStatus, now: Date): Promise<BonusEarning> {
  const row = await db.transaction(async (tx) => {
    await ensureShares(tx, submissionId);
    return status === 'paid' ? markEarningPaid(tx, { submissionId, by: adminId, transferId: null, now }) : markEarningOwed(tx, submissionId);
  });
  const [submission] = await db.select({ songTitle: submissions.songTitle }).from(submissions).where(eq(submissions.id, submissionId));
  return toEarning(row, submission?.songTitle ?? '', (await sharesOfEarnings(db, [submissionId])).get(submissionId) ?? []);
}
