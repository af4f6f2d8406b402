import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductionState } from '@shared/production';
import { PRODUCTION_TEXTS } from '@shared/production-texts';
import type { PricingTier } from '@shared/submissions';
import { outboxEmails, publications, submissions, viewReadings, type SubmissionRow, type UserRow } from '../../platform/db/schema';
import type { AddressInfo } from 'node:net';
import { textBytes, videoHeaderBytes } from '../../test/file-fixtures';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, linkSubmission, TEST_ORIGIN, TEST_PASSWORD, type Method, type TestApp } from '../../test/helpers';
import { signedEvent } from '../../test/stripe-events';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';
import { VIRAL_CHECK_JOB } from './publication';
import { LATE_REFUND_JOB } from '../../domain/billing/refunds';
import { VIRAL_CHECK_BACKSTOP_JOB } from './viral-check-backstop';
import { deliverableObjectPath, uploadDeliverable } from '../../test/production-fixtures';
import { clearRights } from '../../test/rights-fixtures';
import { startYouTubeStub, type YouTubeStub } from '../../test/youtube-stub';

const WEBHOOK_SECRET = 'whsec_test_production';
const DAY = 24 * 60 * 60 * 1000;

/** The product's clock, moved by the tests (the queue's own timing stays the database's). */
let clockOffsetMs = 0;
const clock = () => new Date(Date.now() + clockOffsetMs);

let stripe: StripeStub;
let youtube: YouTubeStub;
let t: TestApp;
let admin: UserRow;
let adminCookie: string;
let artist: UserRow;
let artistCookie: string;
let other: UserRow;
let otherCookie: string;

beforeAll(async () => {
  stripe = await startStripeStub();
  youtube = await startYouTubeStub({ subscribers: 31_000 });
  t = await createTestApp(
    {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_production',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      YOUTUBE_API_KEY: youtube.apiKey,
      YOUTUBE_CHANNEL_ID: youtube.channelId,
      YOUTUBE_API_URL: youtube.url,
      LATE_DELIVERY_REFUND: 'auto',
      BONUS_PER_TRACK_USD: '25',
    },
    { clock },
  );
  admin = await createAdmin(t.db);
  adminCookie = await t.signIn(admin);
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  artistCookie = await t.signIn(artist);
  other = await createArtist(t.db);
  otherCookie = await t.signIn(other);
});
afterAll(async () => {
  await t?.close();
  await youtube?.close();
  await stripe?.close();
});

const call = (method: Method, url: string, cookie: string, payload?: object) => t.call(method, url, cookie, payload);

const row = async (id: string) => (await t.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;
const emailsOf = (userId: string, kind: string) =>
  t.db.select().from(outboxEmails).where(and(eq(outboxEmails.userId, userId), eq(outboxEmails.kind, kind)));

/** A paid submission whose payment went through Stripe (the stub) and its signed webhook. */
async function paidSubmission(tier: PricingTier = 'professional', owner = artist, overrides: Partial<SubmissionRow> = {}) {
  const sub = await createSubmissionRow(t.db, owner, { pricingTier: tier, songTitle: `Song ${Math.random().toString(36).slice(2, 7)}` });
  const intent = await stripe_intent(sub.id, tier);
  const event = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', intent);
  const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });
  expect(res.statusCode).toBe(200);
  if (Object.keys(overrides).length) await t.db.update(submissions).set(overrides).where(eq(submissions.id, sub.id));
  return row(sub.id);
}

async function stripe_intent(submissionId: string, tier: PricingTier) {
  const res = await call('POST', '/api/create-payment-intent', artistCookie, { submissionId });
  if (res.statusCode !== 200) {
    // Another artist's submission: made through the SDK-shaped stub directly.
    const amount = { free: 0, basic: 4900, premium: 9900, professional: 19900 }[tier];
    const created = await fetch(`${stripe.url}/v1/payment_intents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stripe.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `amount=${amount}&currency=usd&metadata[submissionId]=${submissionId}`,
    });
    const intent = (await created.json()) as { id: string };
    return stripe.setIntent(intent.id, { status: 'succeeded', amount_received: amount });
  }
  const id = res.json().clientSecret.split('_secret_')[0] as string;
  const intent = stripe.intents.get(id)!;
  return stripe.setIntent(id, { status: 'succeeded', amount_received: intent.amount });
}

describe('deadlines', () => {
  it('sets dueAt from the moment the payment succeeded plus the tier’s days; free has none', async () => {
    for (const [tier, days] of [['basic', 5], ['premium', 7], ['professional', 7]] as const) {
      const before = Date.now();
      const sub = await paidSubmission(tier);
      const after = Date.now();
      expect(sub.dueAt!.getTime()).toBeGreaterThanOrEqual(before + days * DAY - 1000);
      expect(sub.dueAt!.getTime()).toBeLessThanOrEqual(after + days * DAY + 1000);
    }
    const free = await createSubmissionRow(t.db, artist);
    expect(free.dueAt).toBeNull();
    const res = await call('GET', `/api/submissions/${free.id}/production`, artistCookie);
    expect(res.json().dueAt).toBeNull();
  });

  it('counts from when Stripe says the payment succeeded, also when the webhook arrives hours later', async () => {
    const sub = await createSubmissionRow(t.db, artist, { pricingTier: 'basic', songTitle: 'Late webhook' });
    const intent = await stripe_intent(sub.id, 'basic');
    // Stripe made the event six hours ago; this (retried) delivery is signed now.
    const succeededAt = new Date(Math.floor((Date.now() - 6 * 60 * 60 * 1000) / 1000) * 1000);
    const event = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', intent, undefined, succeededAt);
    const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });
    expect(res.statusCode).toBe(200);
    expect((await row(sub.id)).dueAt!.toISOString()).toBe(new Date(succeededAt.getTime() + 5 * DAY).toISOString());
    const [receipt] = (await emailsOf(artist.id, 'payment_received')).filter((e) => (e.templateData as { submissionId: string }).submissionId === sub.id);
    expect(receipt!.templateData).toMatchObject({ paidAt: succeededAt.toISOString() });
  });

  it('filters the admin list by overdue, today and week, and sorts by due', async () => {
    const now = Date.now();
    const overdue = await paidSubmission('basic', artist, { dueAt: new Date(now - 2 * DAY), songTitle: 'Overdue one' });
    const soon = await paidSubmission('basic', artist, { dueAt: new Date(now + 3 * DAY), songTitle: 'Due in three days' });
    const delivered = await paidSubmission('basic', artist, { dueAt: new Date(now - 3 * DAY), deliveredAt: new Date(now - 4 * DAY) });
    const ids = async (query: string) =>
      ((await call('GET', `/api/admin/submissions?pageSize=200&${query}`, adminCookie)).json().submissions as { id: string }[]).map((s) => s.id);
    const overdueIds = await ids('due=overdue');
    expect(overdueIds).toContain(overdue.id);
    expect(overdueIds).not.toContain(soon.id);
    expect(overdueIds).not.toContain(delivered.id);
    expect(await ids('due=today')).toContain(overdue.id);
    const week = await ids('due=week');
    expect(week).toContain(soon.id);
    expect(week).not.toContain(delivered.id);
    const sorted = await ids('sort=due');
    expect(sorted.indexOf(overdue.id)).toBeLessThan(sorted.indexOf(soon.id));
    expect(sorted.indexOf(soon.id)).toBeLessThan(sorted.indexOf(delivered.id));
    expect((await call('GET', '/api/admin/submissions?due=soon', adminCookie)).statusCode).toBe(400);
  });

  it('ends the deadline of work turned down, refunded or published: no "Due" for the team, no "Delivery by" for the artist, out of the deadline filters', async () => {
    const now = Date.now();
    const ended = {
      rejected: await paidSubmission('basic', artist, { dueAt: new Date(now - DAY), status: 'rejected', songTitle: 'Turned down' }),
      refunded: await paidSubmission('basic', artist, { dueAt: new Date(now - DAY), paymentStatus: 'refunded', refundRequestedAt: new Date(now - 60_000), songTitle: 'Refunded' }),
      published: await paidSubmission('basic', artist, { dueAt: new Date(now - DAY), status: 'published', songTitle: 'Published' }),
    };
    const open = await paidSubmission('basic', artist, { dueAt: new Date(now - DAY), songTitle: 'Still owed' });
    const delivered = await paidSubmission('basic', artist, { dueAt: new Date(now - 3 * DAY), deliveredAt: new Date(now - 4 * DAY), status: 'published' });
    for (const sub of Object.values(ended)) {
      const production = (await call('GET', `/api/submissions/${sub.id}/production`, artistCookie)).json<ProductionState>();
      expect([sub.songTitle, production.dueAt, production.overdue]).toEqual([sub.songTitle, null, false]);
      expect((await call('GET', `/api/submissions/${sub.id}`, artistCookie)).json().dueAt).toBeNull();
      expect((await call('GET', `/api/admin/submissions/${sub.id}`, adminCookie)).json().dueAt).toBeNull();
    }
    expect((await call('GET', `/api/submissions/${open.id}/production`, artistCookie)).json<ProductionState>()).toMatchObject({ overdue: true });
    expect((await call('GET', `/api/admin/submissions/${open.id}`, adminCookie)).json().dueAt).toBe(open.dueAt!.toISOString());
    // A promise kept stays on the record, whatever came after.
    expect((await call('GET', `/api/submissions/${delivered.id}/production`, artistCookie)).json<ProductionState>().dueAt).toBe(delivered.dueAt!.toISOString());
    const ids = async (query: string) =>
      ((await call('GET', `/api/admin/submissions?pageSize=200&${query}`, adminCookie)).json().submissions as { id: string }[]).map((s) => s.id);
    for (const filter of ['due=overdue', 'due=today', 'due=week']) {
      const shown = await ids(filter);
      expect(shown).toContain(open.id);
      for (const sub of Object.values(ended)) expect(shown, `${filter} ${sub.songTitle}`).not.toContain(sub.id);
    }
    const sorted = await ids('sort=due');
    for (const sub of Object.values(ended)) expect(sorted.indexOf(open.id)).toBeLessThan(sorted.indexOf(sub.id));
  });

  it('lists what is overdue in the daily digest', async () => {
    await paidSubmission('premium', artist, { dueAt: new Date(Date.now() - DAY), songTitle: 'Digest overdue' });
    await t.app.jobs.run('notifications.admin-digest');
    const [digest] = await emailsOf(admin.id, 'admin_digest');
    const sections = (digest!.templateData as { sections: { title: string; items: { songTitle: string }[] }[] }).sections;
    const overdue = sections.find((s) => s.title === 'Overdue');
    expect(overdue?.items.map((i) => i.songTitle)).toContain('Digest overdue');
  });
});

describe('deliverables', () => {
  it('delivers uploaded files with a note; the artist lists, plays, downloads one or all, and is emailed', async () => {
    const sub = await paidSubmission('professional');
    const image = await deliverableObjectPath(t.app, adminCookie, 'image');
    const audio = await deliverableObjectPath(t.app, adminCookie, 'audio');
    const res = await call('POST', `/api/admin/submissions/${sub.id}/deliverables`, adminCookie, { objectPaths: [image, audio], note: 'First cut' });
    expect(res.statusCode).toBe(201);
    expect(res.json().files).toHaveLength(2);
    expect((await row(sub.id)).deliveredAt).not.toBeNull();
    expect(await emailsOf(artist.id, 'deliverables_ready')).toHaveLength(1);

    const list = await call('GET', `/api/submissions/${sub.id}/deliverables`, artistCookie);
    expect(list.statusCode).toBe(200);
    const [delivery] = list.json();
    expect(delivery.note).toBe('First cut');
    const [png, wav] = delivery.files;
    expect(png.contentType).toBe('image/png');
    expect(wav.contentType).toBe('audio/wav');

    const ranged = await t.app.inject({ url: wav.url, headers: { cookie: artistCookie, range: 'bytes=0-9' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload).toHaveLength(10);
    const download = await t.app.inject({ url: `${png.url}?download`, headers: { cookie: artistCookie } });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('attachment; filename="cover.png"');

    const zip = await t.app.inject({ url: `/api/submissions/${sub.id}/deliverables.zip`, headers: { cookie: artistCookie } });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(zip.rawPayload.includes(Buffer.from('cover.png'))).toBe(true);
    expect(zip.rawPayload.includes(Buffer.from('stem.wav'))).toBe(true);

    // Not theirs: 404 everywhere, files included.
    for (const url of [`/api/submissions/${sub.id}/deliverables`, png.url, `/api/submissions/${sub.id}/deliverables.zip`]) {
      expect((await t.app.inject({ url, headers: { cookie: otherCookie } })).statusCode).toBe(404);
    }
  });

  it('delivers a video uploaded resumably (tus), resumed after a pause', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const video = Buffer.concat([videoHeaderBytes(), Buffer.alloc(200_000, 7)]);
    const headers = { cookie: adminCookie, origin: TEST_ORIGIN, 'tus-resumable': '1.0.0' };
    const created = await fetch(`${origin}/api/video-uploads`, { method: 'POST', headers: { ...headers, 'upload-length': String(video.length) } });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const half = 100_000;
    for (const [offset, part] of [[0, video.subarray(0, half)], [half, video.subarray(half)]] as const) {
      const res = await fetch(`${origin}${new URL(location).pathname}`, {
        method: 'PATCH',
        headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: part,
      });
      expect(res.status).toBe(204);
    }
    const checked = await call('PUT', '/api/admin/deliverable-files', adminCookie, { deliverableFileURL: location, fileName: 'final-video.mp4' });
    expect(checked.statusCode, checked.body).toBe(200);
    const sub = await paidSubmission('premium');
    const delivered = await call('POST', `/api/admin/submissions/${sub.id}/deliverables`, adminCookie, { objectPaths: [checked.json().objectPath] });
    expect(delivered.statusCode).toBe(201);
    expect(delivered.json().files[0]).toMatchObject({ fileName: 'final-video.mp4', contentType: 'video/mp4', size: video.length });
  });

  it('refuses a file delivered twice, an artist’s upload, an unknown path and a wrong type', async () => {
    const sub = await paidSubmission('basic');
    const image = await deliverableObjectPath(t.app, adminCookie);
    expect((await call('POST', `/api/admin/submissions/${sub.id}/deliverables`, adminCookie, { objectPaths: [image] })).statusCode).toBe(201);
    const again = await call('POST', `/api/admin/submissions/${sub.id}/deliverables`, adminCookie, { objectPaths: [image] });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This file has already been delivered');
    expect((await call('POST', `/api/admin/submissions/${sub.id}/deliverables`, adminCookie, { objectPaths: ['/objects/uploads/nope'] })).statusCode).toBe(400);
    expect((await call('POST', `/api/admin/submissions/${sub.id}/deliverables`, adminCookie, { objectPaths: [] })).statusCode).toBe(400);
    const text = await uploadDeliverable(t.app, adminCookie, textBytes(), 'notes.txt');
    expect(text.statusCode).toBe(415);
  });

  it('delivers once when the same files are sent twice at the same moment', async () => {
    const sub = await paidSubmission('basic');
    const image = await deliverableObjectPath(t.app, adminCookie);
    const results = await Promise.all(
      [1, 2].map(() => call('POST', `/api/admin/submissions/${sub.id}/deliverables`, adminCookie, { objectPaths: [image] })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    expect(await emailsOf(artist.id, 'deliverables_ready').then((rows) => rows.filter((r) => (r.templateData as { submissionId: string }).submissionId === sub.id))).toHaveLength(1);
  });
});

describe('revisions', () => {
  it('gives the professional tier 3 revisions after a delivery; the fourth is refused with a clear message', async () => {
    const sub = await paidSubmission('professional');
    const early = await call('POST', `/api/submissions/${sub.id}/revisions`, artistCookie, { note: 'Too early' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(PRODUCTION_TEXTS.revisionBeforeDelivery);
    await call('POST', `/api/admin/submissions/${sub.id}/deliverables`, adminCookie, { objectPaths: [await deliverableObjectPath(t.app, adminCookie)] });
    for (const n of [1, 2, 3]) {
      const res = await call('POST', `/api/submissions/${sub.id}/revisions`, artistCookie, { note: `Change ${n}` });
      expect(res.statusCode).toBe(201);
    }
    const fourth = await call('POST', `/api/submissions/${sub.id}/revisions`, artistCookie, { note: 'Change 4' });
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({ code: 'revisions_exhausted', message: PRODUCTION_TEXTS.revisionsExhausted(3) });
    const state: ProductionState = (await call('GET', `/api/submissions/${sub.id}/production`, adminCookie)).json();
    expect(state.revisions).toMatchObject({ allowed: 3, used: 3 });
    expect(state.revisions.requests.map((r) => r.note)).toEqual(['Change 1', 'Change 2', 'Change 3']);
  });

  it('gives other tiers none, refuses a blank note, another artist and two at once for the last one', async () => {
    const premium = await paidSubmission('premium', artist, { deliveredAt: new Date() });
    const refused = await call('POST', `/api/submissions/${premium.id}/revisions`, artistCookie, { note: 'Please' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(PRODUCTION_TEXTS.revisionsExhausted(0));
    const pro = await paidSubmission('professional', artist, { deliveredAt: new Date() });
    expect((await call('POST', `/api/submissions/${pro.id}/revisions`, artistCookie, { note: '  ' })).statusCode).toBe(400);
    expect((await call('POST', `/api/submissions/${pro.id}/revisions`, otherCookie, { note: 'Mine?' })).statusCode).toBe(404);
    for (const n of [1, 2]) await call('POST', `/api/submissions/${pro.id}/revisions`, artistCookie, { note: `Change ${n}` });
    const last = await Promise.all([1, 2].map(() => call('POST', `/api/submissions/${pro.id}/revisions`, artistCookie, { note: 'Last' })));
    expect(last.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });
});

describe('refunds', () => {
  it('refunds the full payment through Stripe; a second refund changes nothing and asks Stripe nothing more', async () => {
    const sub = await paidSubmission('premium');
    const first = await call('POST', `/api/admin/submissions/${sub.id}/refund`, adminCookie);
    expect(first.statusCode).toBe(200);
    expect(first.json().refund).toMatchObject({ status: 'refunded', reason: 'admin' });
    const refunds = [...stripe.refunds.values()].filter((r) => r.payment_intent === sub.stripePaymentIntentId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.amount).toBe(9900);
    expect((await row(sub.id)).paymentStatus).toBe('refunded');
    const second = await call('POST', `/api/admin/submissions/${sub.id}/refund`, adminCookie);
    expect(second.statusCode).toBe(200);
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === sub.stripePaymentIntentId)).toHaveLength(1);
    expect((await emailsOf(artist.id, 'refund_issued')).filter((e) => (e.templateData as { submissionId: string }).submissionId === sub.id)).toHaveLength(1);
  });

  it('refunds once when asked twice at the same moment', async () => {
    const sub = await paidSubmission('basic');
    const results = await Promise.all([1, 2].map(() => call('POST', `/api/admin/submissions/${sub.id}/refund`, adminCookie)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === sub.stripePaymentIntentId)).toHaveLength(1);
  });

  it('marks a payment refunded from the signed charge.refunded webhook, once', async () => {
    const sub = await paidSubmission('basic');
    await fetch(`${stripe.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stripe.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `payment_intent=${sub.stripePaymentIntentId}`,
    });
    const event = signedEvent(WEBHOOK_SECRET, 'charge.refunded', stripe.chargeOf(sub.stripePaymentIntentId!));
    for (const _ of [1, 2]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });
      expect(res.statusCode).toBe(200);
    }
    expect((await row(sub.id)).paymentStatus).toBe('refunded');
    // Stripe already refunded it: the team's refund records it and asks for nothing more.
    expect((await call('POST', `/api/admin/submissions/${sub.id}/refund`, adminCookie)).statusCode).toBe(200);
    const bad = { ...event, headers: { ...event.headers, 'stripe-signature': 't=1,v1=bad' } };
    expect((await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: bad.headers, payload: bad.payload })).statusCode).toBe(400);
  });

  it('refuses to refund what was never paid', async () => {
    const free = await createSubmissionRow(t.db, artist);
    const res = await call('POST', `/api/admin/submissions/${free.id}/refund`, adminCookie);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('not_refundable');
  });

  it('LATE_DELIVERY_REFUND=auto: the scheduled job refunds what is late and tells the artist; delivered work is left alone', async () => {
    const late = await paidSubmission('basic', artist, { dueAt: new Date(Date.now() - 60_000), songTitle: 'Late one' });
    const onTime = await paidSubmission('basic', artist, { dueAt: new Date(Date.now() - 60_000), deliveredAt: new Date(Date.now() - DAY) });
    const notYet = await paidSubmission('basic', artist, { dueAt: new Date(Date.now() + DAY) });
    await t.app.jobs.run(LATE_REFUND_JOB);
    const lateRow = await row(late.id);
    expect(lateRow).toMatchObject({ paymentStatus: 'refunded', refundReason: 'late_delivery' });
    expect((await row(onTime.id)).paymentStatus).toBe('succeeded');
    expect((await row(notYet.id)).paymentStatus).toBe('succeeded');
    const told = (await emailsOf(artist.id, 'refund_issued')).find((e) => (e.templateData as { submissionId: string }).submissionId === late.id);
    expect(told?.templateData).toMatchObject({ reason: 'late_delivery' });
    await t.app.jobs.run(LATE_REFUND_JOB);
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === late.stripePaymentIntentId)).toHaveLength(1);
  });
});

describe('publication and the 14-day check', () => {
  const publish = async (id: string, publishedAt: Date, videoId: string, extra: object = {}) => {
    await clearRights(t.db, id);
    return call('PUT', `/api/admin/submissions/${id}/publication`, adminCookie, {
      videoUrl: `https://www.youtube.com/watch?v=${videoId}`,
      publishedAt: publishedAt.toISOString(),
      ...extra,
    });
  };

  async function approved(owner = artist) {
    return createSubmissionRow(t.db, owner, { status: 'approved', songTitle: `Track ${Math.random().toString(36).slice(2, 7)}` });
  }

  it('locks the channel’s subscriber count from the YouTube Data API, sets published and emails the artist', async () => {
    const sub = await approved();
    youtube.subscribers = 31_000;
    const res = await publish(sub.id, new Date(), 'lockTest001', { subscriberCount: 5 });
    expect(res.statusCode).toBe(200);
    expect(res.json().publication).toMatchObject({ subscriberCount: 31_000, subscriberSource: 'youtube', viewsNeeded: 15_500 });
    expect((await row(sub.id)).status).toBe('published');
    expect(await emailsOf(artist.id, 'video_published').then((r) => r.some((e) => (e.templateData as { submissionId: string }).submissionId === sub.id))).toBe(true);
    youtube.subscribers = 99_000;
    const again = await publish(sub.id, new Date(), 'lockTest001');
    expect(again.json().publication.subscriberCount).toBe(31_000);
  });

  it('refuses to publish a submission not yet approved, and bad input', async () => {
    const pending = await createSubmissionRow(t.db, artist);
    expect((await publish(pending.id, new Date(), 'notApproved1')).statusCode).toBe(409);
    const sub = await approved();
    for (const payload of [{ videoUrl: 'javascript:alert(1)', publishedAt: new Date().toISOString() }, { videoUrl: 'https://youtu.be/x', publishedAt: 'yesterday' }]) {
      expect((await call('PUT', `/api/admin/submissions/${sub.id}/publication`, adminCookie, payload)).statusCode).toBe(400);
    }
  });

  it('decides the hit exactly: 31,000 subscribers → 15,500 views is a hit, 15,499 is not', async () => {
    youtube.subscribers = 31_000;
    for (const [views, hit] of [[15_500, true], [15_499, false]] as const) {
      const sub = await approved();
      const videoId = `threshold${views}`;
      youtube.views.set(videoId, views);
      const publishedAt = new Date(Date.now() - 14 * DAY - 60_000);
      await publish(sub.id, publishedAt, videoId);
      const outcome = await t.app.jobs.run(VIRAL_CHECK_JOB, { submissionId: sub.id, checkAt: new Date(publishedAt.getTime() + 14 * DAY).toISOString() });
      // The check is already due, so the queue's own worker may run it first (on a busy machine it
      // did): either way it is recorded once, with the figures below.
      expect(['recorded', 'already_checked']).toContain(outcome);
      const [p] = await t.db.select().from(publications).where(eq(publications.submissionId, sub.id));
      expect(p).toMatchObject({ viewsAt14Days: views, viralHit: hit });
    }
  });

  it('runs at publishedAt + 14 days by the clock, records how late it ran, and only once', async () => {
    const sub = await approved();
    youtube.views.set('clockTest01', 20_000);
    const publishedAt = new Date();
    await publish(sub.id, publishedAt, 'clockTest01');
    const job = { submissionId: sub.id, checkAt: new Date(publishedAt.getTime() + 14 * DAY).toISOString() };
    try {
      clockOffsetMs = 13 * DAY;
      expect(await t.app.jobs.run(VIRAL_CHECK_JOB, job)).toBe('rescheduled');
      expect((await t.db.select().from(publications).where(eq(publications.submissionId, sub.id)))[0]!.checkedAt).toBeNull();
      clockOffsetMs = 14 * DAY + 2 * 60 * 60 * 1000;
      expect(await t.app.jobs.run(VIRAL_CHECK_JOB, job)).toBe('recorded');
      expect(await t.app.jobs.run(VIRAL_CHECK_JOB, job)).toBe('already_checked');
    } finally {
      clockOffsetMs = 0;
    }
    const state: ProductionState = (await call('GET', `/api/submissions/${sub.id}/production`, artistCookie)).json();
    expect(state.publication).toMatchObject({ viewsAt14Days: 20_000, viralHit: true });
    expect(state.publication!.checkLateSeconds).toBeGreaterThanOrEqual(2 * 60 * 60 - 5);
    expect(state.publication!.checkLateSeconds).toBeLessThanOrEqual(2 * 60 * 60 + 60);
    expect(state.publication!.readings).toHaveLength(1);
  });

  it('queues again a check whose job was lost, by the clock, once, and not one whose job still waits', async () => {
    const liveJobs = async (submissionId: string) => {
      const result = await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pgboss.job where name = ${VIRAL_CHECK_JOB} and data->>'submissionId' = ${submissionId} and state < 'completed'`,
      );
      return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
    };
    const publishedAt = new Date();
    const [dropped, exhausted, waiting] = await Promise.all([1, 2, 3].map(() => approved()));
    for (const [sub, videoId] of [[dropped, 'lostDropped'], [exhausted, 'lostFailed1'], [waiting, 'stillQueued']] as const) {
      youtube.views.set(videoId, 16_000);
      expect((await publish(sub!.id, publishedAt, videoId)).statusCode).toBe(200);
      expect(await liveJobs(sub!.id)).toBe(1);
    }
    // pg-boss dropped one job (it waited past its retention while the server was off); the other
    // ran out of retries.
    await t.db.execute(sql`delete from pgboss.job where name = ${VIRAL_CHECK_JOB} and data->>'submissionId' = ${dropped!.id}`);
    await t.db.execute(sql`update pgboss.job set state = 'failed' where name = ${VIRAL_CHECK_JOB} and data->>'submissionId' = ${exhausted!.id}`);

    // Not due yet: nothing to make up for.
    await t.app.jobs.run(VIRAL_CHECK_BACKSTOP_JOB);
    expect(await liveJobs(dropped!.id)).toBe(0);

    const checkedAt = async (id: string) => (await t.db.select().from(publications).where(eq(publications.submissionId, id)))[0]!.checkedAt;
    try {
      clockOffsetMs = 14 * DAY + 60 * 60 * 1000;
      expect(await t.app.jobs.run(VIRAL_CHECK_BACKSTOP_JOB)).toBeGreaterThanOrEqual(2);
      expect(await liveJobs(waiting!.id)).toBe(1);
      // A second run while they wait adds nothing.
      await t.app.jobs.run(VIRAL_CHECK_BACKSTOP_JOB);
      for (const sub of [dropped!, exhausted!]) expect(await liveJobs(sub.id)).toBeLessThanOrEqual(1);
      // The queue's workers run the new jobs; the reading is marked an hour late.
      for (const sub of [dropped!, exhausted!]) await expect.poll(() => checkedAt(sub.id), { timeout: 15_000, interval: 100 }).not.toBeNull();
      // The queue marks each job completed a moment after its handler wrote the reading.
      for (const sub of [dropped!, exhausted!]) await expect.poll(() => liveJobs(sub.id), { timeout: 15_000, interval: 100 }).toBe(0);
    } finally {
      clockOffsetMs = 0;
    }
    for (const sub of [dropped!, exhausted!]) {
      const [p] = await t.db.select().from(publications).where(eq(publications.submissionId, sub.id));
      expect(p).toMatchObject({ viewsAt14Days: 16_000, viralHit: true });
      expect(p!.checkLateSeconds).toBeGreaterThanOrEqual(60 * 60 - 5);
      expect(await t.db.select().from(viewReadings).where(eq(viewReadings.submissionId, sub.id))).toHaveLength(1);
    }
    // Checked: the backstop leaves them alone from now on.
    clockOffsetMs = 14 * DAY + 2 * 60 * 60 * 1000;
    try {
      await t.app.jobs.run(VIRAL_CHECK_BACKSTOP_JOB);
      for (const sub of [dropped!, exhausted!]) expect(await liveJobs(sub.id)).toBe(0);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('lets the team correct the views with history, never before 14 days', async () => {
    const sub = await approved();
    await publish(sub.id, new Date(), 'earlyViews1');
    const early = await call('PUT', `/api/admin/submissions/${sub.id}/views`, adminCookie, { viewsAt14Days: 1 });
    expect(early.statusCode).toBe(409);
    const past = await approved();
    await publish(past.id, new Date(Date.now() - 15 * DAY), 'pastViews01');
    expect((await call('PUT', `/api/admin/submissions/${past.id}/views`, adminCookie, { viewsAt14Days: 15_499 })).json().publication.viralHit).toBe(false);
    const corrected = (await call('PUT', `/api/admin/submissions/${past.id}/views`, adminCookie, { viewsAt14Days: 15_500 })).json();
    expect(corrected.publication).toMatchObject({ viewsAt14Days: 15_500, viralHit: true });
    expect(corrected.publication.readings.map((r: { views: number }) => r.views)).toEqual([15_499, 15_500]);
    for (const payload of [{ viewsAt14Days: -1 }, { viewsAt14Days: 1.5 }, { viewsAt14Days: '100' }]) {
      expect((await call('PUT', `/api/admin/submissions/${past.id}/views`, adminCookie, payload)).statusCode).toBe(400);
    }
    expect((await call('PUT', `/api/submissions/${past.id}/views`, artistCookie, { viewsAt14Days: 1 })).statusCode).toBe(404);
  });
});

describe('the bonus ledger', () => {
  it('counts hits, unlocks after three, earns BONUS_PER_TRACK_USD for each later track; the team marks it paid', async () => {
    const star = await createArtist(t.db, { artistName: 'Star' });
    const starCookie = await t.signIn(star);
    youtube.subscribers = 31_000;
    for (const n of [1, 2, 3]) {
      const sub = await createSubmissionRow(t.db, star, { status: 'approved', songTitle: `Hit ${n}` });
      await clearRights(t.db, sub.id);
      await call('PUT', `/api/admin/submissions/${sub.id}/publication`, adminCookie, {
        videoUrl: `https://youtu.be/starhit00${n}`,
        publishedAt: new Date(Date.now() - 20 * DAY).toISOString(),
      });
      await call('PUT', `/api/admin/submissions/${sub.id}/views`, adminCookie, { viewsAt14Days: 15_500 + n });
    }
    let bonus = (await call('GET', '/api/bonus', starCookie)).json();
    expect(bonus).toMatchObject({ viralHits: 3, hitsNeeded: 3, unlocked: true, bonusPerTrack: '25.00', earnings: [] });
    expect(bonus.tracks).toHaveLength(3);
    expect(bonus.tracks[0]).toMatchObject({ subscriberCount: 31_000, viewsNeeded: 15_500, viralHit: true });

    const fourth = await createSubmissionRow(t.db, star, { status: 'approved', songTitle: 'Fourth' });
    await clearRights(t.db, fourth.id);
    await call('PUT', `/api/admin/submissions/${fourth.id}/publication`, adminCookie, { videoUrl: 'https://youtu.be/starhit004', publishedAt: new Date().toISOString() });
    bonus = (await call('GET', '/api/bonus', starCookie)).json();
    expect(bonus.earnings).toEqual([expect.objectContaining({ submissionId: fourth.id, amount: '25.00', status: 'owed' })]);

    const ledgers = (await call('GET', '/api/admin/bonus', adminCookie)).json();
    expect(ledgers.find((l: { userId: string }) => l.userId === star.id)).toMatchObject({ viralHits: 3, owed: '25.00', paid: '0.00' });
    const paid = await call('PATCH', `/api/admin/bonus/earnings/${fourth.id}`, adminCookie, { status: 'paid' });
    expect(paid.json()).toMatchObject({ status: 'paid' });
    expect((await call('GET', '/api/bonus', starCookie)).json().earnings[0].status).toBe('paid');
    expect((await call('GET', '/api/admin/bonus', starCookie)).statusCode).toBe(403);
    expect((await call('PATCH', `/api/admin/bonus/earnings/nope`, adminCookie, { status: 'paid' })).statusCode).toBe(404);
    // Another artist sees only their own.
    expect((await call('GET', '/api/bonus', otherCookie)).json()).toMatchObject({ viralHits: 0, tracks: [], earnings: [] });
  });
});

describe('the bonus ledger after an account deletion (issue 43)', () => {
  it('names the artist by the name kept on their work and says the account was deleted, not "Unknown" and "No email"', async () => {
    const gone = await createArtist(t.db, { artistName: 'Gone Artist' });
    const sub = await createSubmissionRow(t.db, gone, { status: 'approved', songTitle: 'Left Behind', artistName: 'Velvet Ghost' });
    await clearRights(t.db, sub.id);
    const published = await call('PUT', `/api/admin/submissions/${sub.id}/publication`, adminCookie, { videoUrl: 'https://youtu.be/leftbehind1', publishedAt: new Date().toISOString() });
    expect(published.statusCode, published.body).toBe(200);
    const ledgerOf = async () => ((await call('GET', '/api/admin/bonus', adminCookie)).json() as { userId: string }[]).find((l) => l.userId === gone.id);
    expect(await ledgerOf()).toMatchObject({ artistName: 'Gone Artist', email: gone.email, accountDeleted: false });
    const deleted = await call('DELETE', '/api/account', await t.signIn(gone), { password: TEST_PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await ledgerOf()).toMatchObject({ artistName: 'Velvet Ghost', email: null, accountDeleted: true });
  });
});

describe('the licence record', () => {
  it('keeps the exact Terms text, its hash and the time of acceptance with each submission', async () => {
    const res = await call('POST', '/api/submissions', artistCookie, linkSubmission({ artistName: 'Nora Vex', songTitle: 'Licensed' }));
    expect(res.statusCode).toBe(201);
    const state: ProductionState = (await call('GET', `/api/submissions/${res.json().id}/production`, artistCookie)).json();
    expect(state.licence).not.toBeNull();
    expect(state.licence!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(state.licence!.text).toContain('perpetual, worldwide, royalty-free');
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(state.licence!.text).digest('hex')).toBe(state.licence!.hash);
    const csv = await call('GET', '/api/admin/submissions.csv?q=Licensed', adminCookie);
    expect(csv.body).toContain(state.licence!.hash);
  });
});
