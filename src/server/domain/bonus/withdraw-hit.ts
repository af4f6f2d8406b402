import { and, asc, eq, gte, inArray, isNull, ne } from 'drizzle-orm';
import { VIRAL_HITS_NEEDED } from '@shared/production-texts';
import { formatUsd } from '@shared/submissions';
import type { EarningStatus } from '@shared/production';
import type { Tx } from '../../platform/db/client';
import { bonusClawbacks, bonusEarnings, earningShares, payees, publications, submissions, users } from '../../platform/db/schema';
import type { ShareStatus } from '@shared/payees';
import { ensureShares } from './earning-shares';
import { newId } from '../../platform/ids';
import type { EmailQueue } from '../email/email-kinds';
import { recordHistory } from '../submission/history';
import { countingHit } from './counting-hits';
import { markEarningVoid } from './earning-payment';

/**
 * THE writer of void earnings and clawbacks (CONTRACT §25, decision 195): a hit withdrawn at the
 * second look, the earnings it made possible voided or clawed back, and a clawback's deduction
 * from a later payout. The ledger's other writer (earning-payment.ts) never pays a void earning.
 */

const cents = (amount: string) => Math.round(Number(amount) * 100);
const usd = (amountCents: number) => formatUsd(amountCents / 100);

export interface WithdrawnHitOutcome {
  /** Unpaid earnings made void. */
  voided: string[];
  /** Paid earnings recorded as clawback lines. */
  clawedBack: string[];
}

/**
 * The second look found the first 14 days below the threshold: the hit of `submissionId` no longer
 * counts. Which earnings it "created": those whose unlock depended on it — an earning of the
 * artist recorded after the hit counted (`createdAt ≥ hitRecordedAt`) that the artist's other hits
 * still counting would not have unlocked on their own (fewer than three of them had counted by the
 * earning's `createdAt`). An unpaid one becomes `void` with the reason; a paid one becomes a
 * clawback line of its payee, deducted from their next payouts. The artist is emailed. In the
 * caller's transaction, with the publication row locked by the caller: once per hit.
 */
export async function withdrawHit(
  tx: Tx,
  outbox: EmailQueue,
  input: { submissionId: string; views: number; viewsNeeded: number; now: Date },
): Promise<WithdrawnHitOutcome | null> {
  const { submissionId, now } = input;
  const reason = `"%s" no longer counts as a viral hit: YouTube now counts ${input.views.toLocaleString('en-US')} views for its first 14 days, fewer than the ${input.viewsNeeded.toLocaleString('en-US')} needed`;
  const [hit] = await tx
    .select({ publication: publications, userId: submissions.userId, songTitle: submissions.songTitle })
    .from(publications)
    .innerJoin(submissions, eq(submissions.id, publications.submissionId))
    .where(eq(publications.submissionId, submissionId));
  if (!hit || hit.publication.hitWithdrawnAt) return null;
  const because = reason.replace('%s', hit.songTitle || 'Untitled');
  // The artist's row: the same lock a publication takes to count hits (earnBonusIfUnlocked).
  await tx.select({ id: users.id }).from(users).where(eq(users.id, hit.userId)).for('update');
  await tx.update(publications).set({ hitWithdrawnAt: now, hitWithdrawnReason: because, updatedAt: now }).where(eq(publications.submissionId, submissionId));
  await recordHistory(tx, submissionId, { kind: 'viral_hit', by: null, from: 'viral hit', to: because, at: now });

  const outcome: WithdrawnHitOutcome = { voided: [], clawedBack: [] };
  const affected: { voided: { songTitle: string; amount: string }[]; clawedBack: { songTitle: string; amount: string }[] } = { voided: [], clawedBack: [] };
  let clawedBackCents = 0;
  const since = hit.publication.hitRecordedAt;
  if (since) {
    const remaining = await tx
      .select({ at: publications.hitRecordedAt })
      .from(publications)
      .innerJoin(submissions, eq(submissions.id, publications.submissionId))
      .where(and(eq(submissions.userId, hit.userId), countingHit));
    const earnings = await tx
      .select({ earning: bonusEarnings, songTitle: submissions.songTitle })
      .from(bonusEarnings)
      .innerJoin(submissions, eq(submissions.id, bonusEarnings.submissionId))
      .where(and(eq(bonusEarnings.userId, hit.userId), ne(bonusEarnings.status, 'void' satisfies EarningStatus), gte(bonusEarnings.createdAt, since)))
      .orderBy(asc(bonusEarnings.createdAt))
      .for('update', { of: bonusEarnings });
    for (const { earning, songTitle } of earnings) {
      const unlockedWithout = remaining.filter((h) => h.at !== null && h.at <= earning.createdAt).length >= VIRAL_HITS_NEEDED;
      if (unlockedWithout) continue;
      const title = songTitle || 'Untitled';
      // Another withdrawn hit took this earning back already: once is all.
      const [taken] = await tx.select({ id: bonusClawbacks.id }).from(bonusClawbacks).where(eq(bonusClawbacks.submissionId, earning.submissionId)).limit(1);
      if (taken) continue;
      // Its unpaid shares (CONTRACT §24) are voided with it; each share paid already is clawed back
      // from that share's payee, deducted from their next payouts.
      await ensureShares(tx, earning.submissionId);
      const paidShares = await tx
        .select({ payeeId: earningShares.payeeId, amountCents: earningShares.amountCents, artistsOwn: payees.userId })
        .from(earningShares)
        .innerJoin(payees, eq(payees.id, earningShares.payeeId))
        .where(and(eq(earningShares.submissionId, earning.submissionId), eq(earningShares.status, 'paid' satisfies ShareStatus)));
      if (await markEarningVoid(tx, { submissionId: earning.submissionId, reason: because, now })) {
        outcome.voided.push(earning.submissionId);
        affected.voided.push({ songTitle: title, amount: usd(cents(earning.amount)) });
      }
      let artistsCents = 0;
      for (const share of paidShares) {
        if (!share.payeeId || share.amountCents <= 0) continue;
        await recordClawback(tx, { whose: share.payeeId, submissionId: earning.submissionId, amountCents: share.amountCents, reason: because, now });
        if (share.artistsOwn === hit.userId) artistsCents += share.amountCents;
      }
      if (paidShares.some((s) => s.amountCents > 0)) outcome.clawedBack.push(earning.submissionId);
      // The artist's email names what is taken back from them; a co-owner's share is theirs to settle.
      if (artistsCents > 0) {
        clawedBackCents += artistsCents;
        affected.clawedBack.push({ songTitle: title, amount: usd(artistsCents) });
      }
    }
  }

  await outbox.queue(tx, {
    kind: 'viral_hit_withdrawn',
    userId: hit.userId,
    data: { submissionId, songTitle: hit.songTitle, views: input.views, viewsNeeded: input.viewsNeeded, ...affected },
  });
  if (affected.clawedBack.length) {
    await outbox.queue(tx, {
      kind: 'bonus_clawed_back',
      userId: hit.userId,
      data: { total: usd(clawedBackCents), earnings: affected.clawedBack, hitSongTitle: hit.songTitle },
    });
  }
  return outcome;
}

/**
 * A clawback line: `amountCents` of the earning `submissionId` taken back from the payee `whose`
 * (CONTRACT §24, §25). Never charged: deducted by `deductClawbacks`.
 */
export async function recordClawback(tx: Tx, line: { whose: string; submissionId: string; amountCents: number; reason: string; now: Date }): Promise<void> {
  await tx.insert(bonusClawbacks).values({
    id: newId(),
    submissionId: line.submissionId,
    payeeId: line.whose,
    amountCents: line.amountCents,
    reason: line.reason,
    createdAt: line.now,
  });
}

/**
 * The clawback arithmetic, in one function: deducts `whose`'s outstanding clawbacks (oldest first)
 * from a payout of `amountCents` made for the earning `from`, never below zero; a line covered in
 * part is split, its rest staying outstanding. Answers the cents deducted; the caller transfers
 * the rest, in the same transaction, so a payout that fails deducts nothing.
 */
export async function deductClawbacks(tx: Tx, payout: { whose: string; amountCents: number; from: string; now: Date }): Promise<number> {
  const outstanding = await tx
    .select()
    .from(bonusClawbacks)
    .where(and(eq(bonusClawbacks.payeeId, payout.whose), isNull(bonusClawbacks.deductedAt)))
    .orderBy(asc(bonusClawbacks.createdAt), asc(bonusClawbacks.id))
    .for('update');
  let left = payout.amountCents;
  const settled: string[] = [];
  for (const line of outstanding) {
    if (left <= 0) break;
    if (line.amountCents <= left) {
      settled.push(line.id);
      left -= line.amountCents;
      continue;
    }
    // Part of this line: the deducted part is recorded against this payout, the rest stays outstanding.
    await tx.update(bonusClawbacks).set({ amountCents: left, deductedAt: payout.now, deductedFrom: payout.from }).where(eq(bonusClawbacks.id, line.id));
    await tx.insert(bonusClawbacks).values({ ...line, id: newId(), amountCents: line.amountCents - left });
    left = 0;
  }
  if (settled.length) await tx.update(bonusClawbacks).set({ deductedAt: payout.now, deductedFrom: payout.from }).where(inArray(bonusClawbacks.id, settled));
  return payout.amountCents - left;
}
