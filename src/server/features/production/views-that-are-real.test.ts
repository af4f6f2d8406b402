import { and, eq, getTableColumns } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCREEN_THRESHOLDS, screenReasons } from '@shared/production';
import { bonusClawbacks, bonusEarnings, outboxEmails, payees, payoutAccounts, publications, submissionHistory, type UserRow } from '../../platform/db/schema';
import { connectChannel, startChannelWorld, type ChannelWorld } from '../../test/channel-fixtures';
import { createAdmin, createArtist, createSubmissionRow } from '../../test/helpers';
import { waitFor } from '../../test/kit';
import { clearRights } from '../../test/rights-fixtures';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';
import { SECOND_LOOK_JOB } from './production-jobs';

/**
 * Views that are real (CONTRACT §25) against the YouTube stub's Analytics answers: the screen's
 * three rules each alone and a clean hit, the team's decision on a suspect hit, a quota refusal
 * retried, and the second look at 28 days voiding an unpaid earning and clawing back a paid one,
 * deducted from the next payout.
 */
const WEBHOOK_SECRET = 'whsec_test_views_real';
const DAY = 86_400_000;
const day = (at: number) => new Date(at).toISOString().slice(0, 10);

let w: ChannelWorld;
let stripe: StripeStub;
let admin: UserRow;
let adminCookie: string;

beforeAll(async () => {
  stripe = await startStripeStub();
  w = await startChannelWorld({
    BONUS_PER_TRACK_USD: '25',
    YOUTUBE_RETRY_DELAY_S: '0.2',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_views_real',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
  });
  admin = await createAdmin(w.t.db);
  adminCookie = await w.t.signIn(admin);
  await connectChannel(w.t, adminCookie);
  w.stub.subscribers = 20_000;
});
afterAll(async () => {
  await w?.close();
  await stripe?.close();
});

let videoCounter = 0;
/** A fresh 11-character video id. */
const newVideoId = () => `vReal${String(videoCounter++).padStart(6, '0')}`;

/** Daily views for days 0..13 after `publishedAt`: `perDay` each, or the figure `spike` gives a day. */
function reportDays(videoId: string, publishedAt: Date, perDay: number, spike: Record<number, number> = {}) {
  const days = new Map<string, number>();
  for (let i = 0; i <= 16; i++) days.set(day(publishedAt.getTime() + i * DAY), spike[i] ?? perDay);
  w.stub.dailyViews.set(videoId, days);
}

/** Publishes `videoId` for the artist's approved submission at `publishedAt`, as the team does by hand. */
async function publish(artist: UserRow, videoId: string, publishedAt: Date, songTitle = 'Paper Moons') {
  const submission = await createSubmissionRow(w.t.db, artist, { status: 'approved', songTitle });
  await clearRights(w.t.db, submission.id);
  const put = await w.t.call('PUT', `/api/admin/submissions/${submission.id}/publication`, adminCookie, {
    videoUrl: `https://www.youtube.com/watch?v=${videoId}`,
    publishedAt: publishedAt.toISOString(),
  });
  expect(put.statusCode).toBe(200);
  return submission;
}

/** The publication once `done` holds for it (the queue's worker runs the check). */
async function publicationWhen(submissionId: string, done: (row: typeof publications.$inferSelect) => boolean) {
  return waitFor(
    async () => {
      const [row] = await w.t.db.select().from(publications).where(eq(publications.submissionId, submissionId));
      return row !== undefined && done(row) && row;
    },
    { what: 'the publication to be checked' },
  );
}

/** A hit checked by the queue: published 16 days ago with 1,000 views a day (14,000: a hit on 20,000 subscribers). */
async function checkedHit(artist: UserRow, shape: { perDay?: number; spike?: Record<number, number>; shares?: Record<string, number>; watched?: number } = {}) {
  const videoId = newVideoId();
  const publishedAt = new Date(Date.now() - 16 * DAY);
  reportDays(videoId, publishedAt, shape.perDay ?? 1000, shape.spike);
  if (shape.shares) w.stub.trafficShares.set(videoId, shape.shares);
  if (shape.watched !== undefined) w.stub.averageViewPercentage.set(videoId, shape.watched);
  const submission = await publish(artist, videoId, publishedAt);
  const row = await publicationWhen(submission.id, (r) => r.checkedAt !== null);
  return { submission, row, videoId };
}

const productionOf = async (submissionId: string) => (await w.t.call('GET', `/api/submissions/${submissionId}/production`, adminCookie)).json().publication;

describe('the screen at the 14-day check', () => {
  it('a clean hit is clear: organic sources, a normal share watched, views spread over the days; it counts', async () => {
    const artist = await createArtist(w.t.db);
    const { submission, row, videoId } = await checkedHit(artist);
    expect(row).toMatchObject({ viralHit: true, screenStatus: 'clear', screenReasons: [] });
    expect(row.hitRecordedAt).not.toBeNull();
    // Two queries, both of the same 14 days: the days carry the average watched, then the sources.
    const queries = w.stub.reports.filter((q) => q.filters === `video==${videoId}`);
    expect(queries.map((q) => [q.dimensions, q.metrics])).toEqual([
      ['day', 'views,averageViewPercentage'],
      ['insightTrafficSourceType', 'views'],
    ]);
    expect(new Set(queries.map((q) => `${q.startDate}..${q.endDate}`)).size).toBe(1);
    const publication = await productionOf(submission.id);
    expect(publication.screen).toMatchObject({ status: 'clear', reasons: [], averageViewPercentage: 42.5 });
    expect(publication.screen.sources.reduce((sum: number, s: { views: number }) => sum + s.views, 0)).toBe(14_000);
    expect(publication.screen.days).toHaveLength(14);
    const bonus = (await w.t.call('GET', '/api/bonus', await w.t.signIn(artist))).json();
    expect(bonus.viralHits).toBe(1);
    expect(bonus.tracks[0]).toMatchObject({ countsAsHit: true, screen: { status: 'clear' } });
  });

  it('not a hit: no screen and no traffic-source query', async () => {
    const artist = await createArtist(w.t.db);
    const { row, videoId } = await checkedHit(artist, { perDay: 100 });
    expect(row).toMatchObject({ viralHit: false, screenStatus: null });
    expect(w.stub.reports.filter((q) => q.filters === `video==${videoId}` && q.dimensions === 'insightTrafficSourceType')).toHaveLength(0);
  });

  it('views from outside links and no link above 50% alone make a hit suspect; it does not count', async () => {
    const artist = await createArtist(w.t.db);
    const { row } = await checkedHit(artist, { shares: { EXT_URL: 0.4, NO_LINK_OTHER: 0.15, YT_SEARCH: 0.3, SUBSCRIBER: 0.15 } });
    expect(row).toMatchObject({ viralHit: true, screenStatus: 'suspect', hitRecordedAt: null });
    expect(row.screenReasons).toHaveLength(1);
    expect(row.screenReasons![0]).toContain('55% of the views came from outside links or no link');
    const bonus = (await w.t.call('GET', '/api/bonus', await w.t.signIn(artist))).json();
    expect(bonus.viralHits).toBe(0);
    expect(bonus.tracks[0]).toMatchObject({ viralHit: true, countsAsHit: false, screen: { status: 'suspect' } });
  });

  it('an average view percentage below 15 alone makes a hit suspect', async () => {
    const artist = await createArtist(w.t.db);
    const { row } = await checkedHit(artist, { watched: 9.4 });
    expect(row.screenStatus).toBe('suspect');
    expect(row.screenReasons).toEqual(['Viewers watched 9.4% of the video on average, below 15%']);
    expect(row.averageViewPercentage).toBe(9.4);
  });

  it('one day holding more than 60% of the 14 days’ views alone makes a hit suspect', async () => {
    const artist = await createArtist(w.t.db);
    const { row } = await checkedHit(artist, { perDay: 400, spike: { 3: 18_000 } });
    expect(row.viewsAt14Days).toBe(13 * 400 + 18_000);
    expect(row.screenStatus).toBe('suspect');
    expect(row.screenReasons).toHaveLength(1);
    expect(row.screenReasons![0]).toMatch(/^\d{4}-\d{2}-\d{2} held 77\.6% of the 14 days' views, more than 60%$/);
  });

  it('the rules compare strictly, and the thresholds are the settings’', () => {
    const days = Array.from({ length: 14 }, (_, i) => ({ date: `2026-01-${String(i + 1).padStart(2, '0')}`, views: 100 }));
    const exactlyHalf = { sources: [{ type: 'EXT_URL', views: 700 }, { type: 'YT_SEARCH', views: 700 }], days, averageViewPercentage: 15 };
    expect(screenReasons(exactlyHalf, DEFAULT_SCREEN_THRESHOLDS)).toEqual([]);
    expect(screenReasons(exactlyHalf, { ...DEFAULT_SCREEN_THRESHOLDS, externalPercentMax: 40, averageViewPercentMin: 20 })).toHaveLength(2);
  });

  it('a quota refusal is tried again on publishing’s schedule and shows on the desk; then the hit is screened', async () => {
    const artist = await createArtist(w.t.db);
    const videoId = newVideoId();
    const publishedAt = new Date(Date.now() - 16 * DAY);
    reportDays(videoId, publishedAt, 1000);
    // Hold the check until the refusals are seen: the first read and its first retry are refused.
    w.stub.quotaRefusals = 2;
    const submission = await publish(artist, videoId, publishedAt);
    const waiting = await publicationWhen(submission.id, (r) => r.screenAttempts >= 1);
    expect(waiting.screenError).toContain('exceeded your quota');
    const desk = await productionOf(submission.id);
    if (desk.checkedAt === null) expect(desk.screenRead).toMatchObject({ attempts: expect.any(Number), error: expect.stringContaining('quota') });
    const checked = await publicationWhen(submission.id, (r) => r.checkedAt !== null);
    expect(checked).toMatchObject({ screenStatus: 'clear', screenAttempts: 2, viralHit: true });
    expect((await productionOf(submission.id)).screenRead).toBeNull();
  });
});

describe('a person decides a suspect hit', () => {
  it('refuses without a reason, for an artist, and for a hit that is not suspect; the desk filters suspect hits', async () => {
    const artist = await createArtist(w.t.db);
    const { submission } = await checkedHit(artist, { watched: 8 });
    const clear = await checkedHit(artist);
    const url = (id: string) => `/api/admin/submissions/${id}/viral-review`;
    expect((await w.t.call('POST', url(submission.id), adminCookie, { decision: 'confirm' })).statusCode).toBe(400);
    expect((await w.t.call('POST', url(submission.id), adminCookie, { decision: 'confirm', reason: '   ' })).statusCode).toBe(400);
    expect((await w.t.call('POST', url(submission.id), adminCookie, { decision: 'maybe', reason: 'x' })).statusCode).toBe(400);
    expect((await w.t.call('POST', url(submission.id), await w.t.signIn(artist), { decision: 'confirm', reason: 'mine' })).statusCode).toBe(403);
    const notSuspect = await w.t.call('POST', url(clear.submission.id), adminCookie, { decision: 'confirm', reason: 'fine' });
    expect(notSuspect.statusCode).toBe(409);
    expect(notSuspect.json().code).toBe('not_suspect');

    const list = await w.t.call('GET', '/api/admin/submissions?viral=suspect&pageSize=200', adminCookie);
    expect(list.statusCode).toBe(200);
    const ids = list.json().submissions.map((s: { id: string }) => s.id);
    expect(ids).toContain(submission.id);
    expect(ids).not.toContain(clear.submission.id);
    expect(list.json().submissions.every((s: { viralScreen: string }) => s.viralScreen === 'suspect')).toBe(true);
    expect((await w.t.call('GET', '/api/admin/submissions?viral=fishy', adminCookie)).statusCode).toBe(400);
  });

  it('confirming the hit that makes the third unlocks the bonus from that moment; rejecting keeps its reason for the artist', async () => {
    const artist = await createArtist(w.t.db);
    const artistCookie = await w.t.signIn(artist);
    await checkedHit(artist);
    await checkedHit(artist);
    const suspect = await checkedHit(artist, { shares: { NO_LINK_OTHER: 0.7, YT_SEARCH: 0.3 } });
    const rejected = await checkedHit(artist, { watched: 6.5 });

    // Before the decision: two hits, and a track published now earns nothing.
    const before = await publish(artist, newVideoId(), new Date(Date.now() - DAY), 'Night Drive');
    expect(await w.t.db.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, before.id))).toHaveLength(0);

    const confirm = await w.t.call('POST', `/api/admin/submissions/${suspect.submission.id}/viral-review`, adminCookie, {
      decision: 'confirm',
      reason: 'A blog and a radio show linked it; the curve follows them',
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json().publication.screen).toMatchObject({ status: 'confirmed', review: { decision: 'confirm', by: admin.id } });
    const again = await w.t.call('POST', `/api/admin/submissions/${suspect.submission.id}/viral-review`, adminCookie, { decision: 'reject', reason: 'x' });
    expect(again.statusCode).toBe(409);
    const [history] = await w.t.db
      .select()
      .from(submissionHistory)
      .where(and(eq(submissionHistory.submissionId, suspect.submission.id), eq(submissionHistory.field, 'viral_review'), eq(submissionHistory.actorId, admin.id)));
    expect(history?.toValue).toBe('confirmed: A blog and a radio show linked it; the curve follows them');

    const reject = await w.t.call('POST', `/api/admin/submissions/${rejected.submission.id}/viral-review`, adminCookie, {
      decision: 'reject',
      reason: 'Most views lasted a few seconds, so they cannot count toward the bonus',
    });
    expect(reject.statusCode).toBe(200);

    // The earlier track stays without an earning (§13 counts at publishing); one published now earns.
    const after = await publish(artist, newVideoId(), new Date(Date.now() - DAY), 'Glass Harbour');
    const bonus = (await w.t.call('GET', '/api/bonus', artistCookie)).json();
    expect(bonus).toMatchObject({ viralHits: 3, unlocked: true });
    expect(bonus.earnings.map((e: { submissionId: string }) => e.submissionId)).toEqual([after.id]);
    const rejectedTrack = bonus.tracks.find((t: { submissionId: string }) => t.submissionId === rejected.submission.id);
    expect(rejectedTrack).toMatchObject({
      countsAsHit: false,
      screen: { status: 'rejected', review: { decision: 'reject', reason: 'Most views lasted a few seconds, so they cannot count toward the bonus', by: null } },
    });
    const confirmedTrack = bonus.tracks.find((t: { submissionId: string }) => t.submissionId === suspect.submission.id);
    expect(confirmedTrack).toMatchObject({ countsAsHit: true, screen: { status: 'confirmed', review: null } });
    // The confirmed hit is announced like any hit.
    const told = await w.t.db.select().from(outboxEmails).where(and(eq(outboxEmails.userId, artist.id), eq(outboxEmails.kind, 'viral_hit_recorded')));
    expect(told).toHaveLength(3);
  });
});

/** A publication row as a past check left it: a hit recorded at `hitAt` (or none), its second look at `lookAt`. */
async function seedPublication(
  artist: UserRow,
  input: { videoId: string; publishedAt: Date; views: number; hitAt: Date | null; lookAt: Date | null; songTitle: string },
) {
  const submission = await createSubmissionRow(w.t.db, artist, { status: 'published', songTitle: input.songTitle });
  await w.t.db.insert(publications).values({
    submissionId: submission.id,
    videoUrl: `https://www.youtube.com/watch?v=${input.videoId}`,
    publishedAt: input.publishedAt,
    subscriberCount: 20_000,
    subscriberSource: 'youtube',
    checkAt: new Date(input.publishedAt.getTime() + 14 * DAY),
    checkedAt: new Date(input.publishedAt.getTime() + 14 * DAY),
    viewsAt14Days: input.views,
    viralHit: input.hitAt !== null,
    hitRecordedAt: input.hitAt,
    screenStatus: input.hitAt ? 'clear' : null,
    secondLookAt: input.lookAt,
  });
  return submission;
}

async function earning(submissionId: string, userId: string, createdAt: Date, amount = '25.00') {
  await w.t.db.insert(bonusEarnings).values({ submissionId, userId, amount, createdAt });
}

async function connectPayouts(user: UserRow): Promise<string> {
  const res = await w.t.call('POST', '/api/payouts/account', await w.t.signIn(user), {});
  expect(res.statusCode).toBe(200);
  const [row] = await w.t.db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, user.id));
  stripe.setAccount(row!.stripeAccountId, { details_submitted: true, payouts_enabled: true, capabilities: { transfers: 'active' } });
  const event = stripe.accountUpdatedEvent(row!.stripeAccountId, WEBHOOK_SECRET);
  expect((await w.t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload })).statusCode).toBe(200);
  // CONTRACT §24: a tax form on file before the first payout.
  const form = { kind: 'w9', legalName: 'Nora Vale', country: 'US', address: '12 Elm St, Austin TX 78701', tin: '123456789', signature: { name: 'Nora Vale', consent: true } };
  expect((await w.t.call('POST', '/api/payouts/tax-form', await w.t.signIn(user), form)).statusCode).toBe(201);
  return row!.stripeAccountId;
}

/** The clawback lines of the artist's own payee (CONTRACT §24, §25). */
const clawbacksOfArtist = (user: UserRow) =>
  w.t.db
    .select(getTableColumns(bonusClawbacks))
    .from(bonusClawbacks)
    .innerJoin(payees, eq(payees.id, bonusClawbacks.payeeId))
    .where(eq(payees.userId, user.id));

describe('the second look at 28 days', () => {
  it('withdraws a hit whose views YouTube removed: the unpaid earning it made possible is void, the paid one a clawback deducted from the next payouts', async () => {
    const artist = await createArtist(w.t.db, { artistName: 'Nora Vale' });
    const now = Date.now();
    const at = (days: number) => new Date(now + days * DAY);
    const hits: { videoId: string; submission: { id: string } }[] = [];
    for (const [i, title] of ['First Light', 'Second Wind', 'Third Rail'].entries()) {
      const videoId = newVideoId();
      reportDays(videoId, at(-32 + i), 1000);
      hits.push({ videoId, submission: await seedPublication(artist, { videoId, publishedAt: at(-32 + i), views: 14_000, hitAt: at(-18 + i), lookAt: at(-4 + i), songTitle: title }) });
    }
    // Day 28 of the third hit has passed, and YouTube now counts 8,000 views for its first 14 days.
    w.stub.dailyViews.set(hits[2]!.videoId, new Map([[day(at(-30).getTime()), 8000]]));

    // Earned on the three hits: a paid one and an owed one; then a fourth hit, and an earning after it.
    const paid = await seedPublication(artist, { videoId: newVideoId(), publishedAt: at(-15), views: 500, hitAt: null, lookAt: null, songTitle: 'Paper Moons' });
    await earning(paid.id, artist.id, at(-15));
    expect((await w.t.call('PATCH', `/api/admin/bonus/earnings/${paid.id}`, adminCookie, { status: 'paid' })).statusCode).toBe(200);
    const owed = await seedPublication(artist, { videoId: newVideoId(), publishedAt: at(-14), views: 500, hitAt: null, lookAt: null, songTitle: 'Night Drive' });
    await earning(owed.id, artist.id, at(-14));
    const fourthId = newVideoId();
    reportDays(fourthId, at(-20), 1000);
    await seedPublication(artist, { videoId: fourthId, publishedAt: at(-20), views: 14_000, hitAt: at(-6), lookAt: at(8), songTitle: 'Fourth Floor' });
    const later = await seedPublication(artist, { videoId: newVideoId(), publishedAt: at(-5), views: 500, hitAt: null, lookAt: null, songTitle: 'Glass Harbour' });
    await earning(later.id, artist.id, at(-5), '10.00');

    // Two sweeps at the same moment (two instances): one withdrawal.
    await Promise.all([w.t.app.jobs.run(SECOND_LOOK_JOB), w.t.app.jobs.run(SECOND_LOOK_JOB)]);
    const [third] = await w.t.db.select().from(publications).where(eq(publications.submissionId, hits[2]!.submission.id));
    expect(third).toMatchObject({ secondLookViews: 8000 });
    expect(third!.hitWithdrawnAt).not.toBeNull();
    const [first] = await w.t.db.select().from(publications).where(eq(publications.submissionId, hits[0]!.submission.id));
    expect(first).toMatchObject({ secondLookViews: 14_000, hitWithdrawnAt: null });

    const [voided] = await w.t.db.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, owed.id));
    expect(voided).toMatchObject({ status: 'void' });
    expect(voided!.voidReason).toContain('"Third Rail" no longer counts as a viral hit: YouTube now counts 8,000 views');
    const [stillPaid] = await w.t.db.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, paid.id));
    expect(stillPaid!.status).toBe('paid');
    const [laterEarning] = await w.t.db.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, later.id));
    expect(laterEarning!.status).toBe('owed');
    const lines = await clawbacksOfArtist(artist);
    expect(lines).toEqual([expect.objectContaining({ submissionId: paid.id, amountCents: 2500, deductedAt: null })]);
    const emails = await w.t.db.select().from(outboxEmails).where(eq(outboxEmails.userId, artist.id));
    expect(emails.filter((e) => e.kind === 'viral_hit_withdrawn')).toHaveLength(1);
    expect(emails.filter((e) => e.kind === 'bonus_clawed_back')).toHaveLength(1);

    // A void earning is never paid, nor marked owed again.
    expect((await w.t.call('PATCH', `/api/admin/bonus/earnings/${owed.id}`, adminCookie, { status: 'paid' })).json().code).toBe('earning_void');
    expect((await w.t.call('PATCH', `/api/admin/bonus/earnings/${owed.id}`, adminCookie, { status: 'owed' })).json().code).toBe('earning_void');
    expect((await w.t.call('PATCH', `/api/admin/bonus/earnings/${owed.id}`, adminCookie, { status: 'void' })).statusCode).toBe(400);

    const bonus = (await w.t.call('GET', '/api/bonus', await w.t.signIn(artist))).json();
    expect(bonus.viralHits).toBe(3);
    expect(bonus.tracks.find((t: { submissionId: string }) => t.submissionId === hits[2]!.submission.id)).toMatchObject({ countsAsHit: false, withdrawn: { views: 8000 } });
    expect(bonus.clawbacks).toEqual([expect.objectContaining({ submissionId: paid.id, amount: '25.00', deductedAt: null })]);

    // The next payout: $10.00 earned, all of it deducted (no transfer); $15.00 stays outstanding.
    const account = await connectPayouts(artist);
    const pay = await w.t.call('POST', `/api/admin/bonus/earnings/${later.id}/pay`, adminCookie, {});
    expect(pay.statusCode).toBe(200);
    expect(pay.json()).toMatchObject({ paid: [{ ownerId: 0, amount: '0.00', transferId: '' }], waiting: [] });
    expect([...stripe.transfers.values()].filter((t) => t.destination === account)).toHaveLength(0);
    const split = await clawbacksOfArtist(artist);
    expect(split.map((l) => [l.amountCents, l.deductedFrom])).toEqual(expect.arrayContaining([[1000, later.id], [1500, null]]));

    // The one after: $40.00 earned, $15.00 deducted, $25.00 transferred; nothing outstanding.
    const next = await seedPublication(artist, { videoId: newVideoId(), publishedAt: at(-1), views: 0, hitAt: null, lookAt: null, songTitle: 'Low Tide' });
    await earning(next.id, artist.id, at(-1), '40.00');
    const payNext = await w.t.call('POST', `/api/admin/bonus/earnings/${next.id}/pay`, adminCookie, {});
    expect(payNext.statusCode).toBe(200);
    const transfers = [...stripe.transfers.values()].filter((t) => t.destination === account);
    expect(transfers.map((t) => Number(t.amount))).toEqual([2500]);
    const ledger = (await w.t.call('GET', '/api/admin/bonus', adminCookie)).json().find((l: { userId: string }) => l.userId === artist.id);
    expect(ledger.outstandingClawback).toBe('0.00');

    const settled = await clawbacksOfArtist(artist);
    expect(settled.map((l) => [l.amountCents, l.deductedFrom]).sort()).toEqual([[1000, later.id], [1500, next.id]].sort());

    // Once per hit: a later sweep changes nothing.
    await w.t.app.jobs.run(SECOND_LOOK_JOB);
    expect(await clawbacksOfArtist(artist)).toHaveLength(2);
    expect(await w.t.db.select().from(outboxEmails).where(and(eq(outboxEmails.userId, artist.id), eq(outboxEmails.kind, 'viral_hit_withdrawn')))).toHaveLength(1);
  });
});
