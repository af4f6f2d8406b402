import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_WAITS_S } from '@shared/webhooks';
import { markEarningPaid } from '../../domain/bonus/earning-payment';
import { markPaymentRefunded, markPaymentSucceeded } from '../../domain/submission/payment-state';
import { publications, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, type UserRow } from '../../platform/db/schema';
import { privateAddressOf } from '../../platform/ssrf-guard';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, headers, linkSubmission, secondInstance, type TestApp } from '../../test/helpers';
import { waitFor } from '../../test/kit';
import { clearRights } from '../../test/rights-fixtures';
import { nextAttemptAt, signWebhook } from './webhook-dispatcher';

/**
 * CONTRACT §28's webhooks, on a receiver on this machine (WEBHOOK_ALLOW_PRIVATE=1 for it). The test
 * app's own dispatcher looks only once, at start: deliveries are made by the instances each test
 * starts, so a test decides when "the server" runs — which is how a restart between queueing and
 * delivery, and two instances at once, are shown.
 */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
}

let t: TestApp;
let admin: UserRow;
let artist: UserRow;
let receiver: http.Server;
let receiverUrl: string;
let received: Received[] = [];
/** Status codes the receiver answers with, in turn; 200 once they run out. */
let answers: number[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    // An endpoint that never answers: the delivery's 10 s timeout ends it.
    if (req.url?.startsWith('/slow')) return;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body, json: JSON.parse(body) });
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/hub`;
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: '1' }, { webhookPollMs: 3_600_000 });
  admin = await createAdmin(t.db);
  artist = await createArtist(t.db);
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(async () => {
  received = [];
  answers = [];
  await t.db.delete(webhookEndpoints);
  await t.db.delete(webhookEvents);
});

async function addEndpoint(events: string[] = ['submission.status_changed', 'submission.created']) {
  const res = await t.call('POST', '/api/admin/webhooks', admin, { url: receiverUrl, events });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

/** Verifies `Hub-Signature` as a receiver would: t, and v1 = HMAC-SHA256("{t}.{body}"). */
function verifies(secret: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return Math.abs(Date.now() / 1000 - Number(match[1])) < 300 && timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}

const approve = async (id: string) => {
  const res = await t.call('PATCH', `/api/admin/submissions/${id}/status`, admin, { status: 'approved' });
  expect(res.statusCode, res.body).toBe(200);
};

describe('the retry schedule and the signature', () => {
  it('retries first within a minute, then with growing waits, at most 12 attempts, all within 24 hours', () => {
    expect(WEBHOOK_RETRY_WAITS_S[0]).toBeLessThanOrEqual(60);
    for (let i = 1; i < WEBHOOK_RETRY_WAITS_S.length; i++) expect(WEBHOOK_RETRY_WAITS_S[i]).toBeGreaterThan(WEBHOOK_RETRY_WAITS_S[i - 1]!);
    const created = new Date('2026-11-28T12:00:00Z');
    let now = created;
    let attempts = 1;
    for (;;) {
      const next = nextAttemptAt(attempts, created, now);
      if (!next) break;
      now = next;
      attempts++;
    }
    expect(attempts).toBe(WEBHOOK_MAX_ATTEMPTS);
    expect(now.getTime() - created.getTime()).toBeLessThanOrEqual(24 * 60 * 60 * 1000);
  });

  it('signs "{t}.{body}" with HMAC-SHA256 in hex', () => {
    const header = signWebhook('whsec_test', '{"id":"e1"}', 1_790_000_000);
    expect(header).toBe(`t=1790000000,v1=${createHmac('sha256', 'whsec_test').update('1790000000.{"id":"e1"}').digest('hex')}`);
  });
});

describe('POST /api/admin/webhooks and its neighbours', () => {
  it('adds an endpoint (201, the secret shown once, kept sealed), lists it without the secret, refuses bad input, admins only', async () => {
    expect((await t.call('POST', '/api/admin/webhooks', admin, { url: 'ftp://example.com/x', events: ['payout.paid'] })).statusCode).toBe(400);
    expect((await t.call('POST', '/api/admin/webhooks', admin, { url: receiverUrl, events: [] })).statusCode).toBe(400);
    expect((await t.call('POST', '/api/admin/webhooks', admin, { url: receiverUrl, events: ['song.sung'] })).statusCode).toBe(400);
    expect((await t.call('POST', '/api/admin/webhooks', admin, { url: 'https://user:pw@example.com/', events: ['payout.paid'] })).statusCode).toBe(400);
    expect((await t.call('POST', '/api/admin/webhooks', artist, { url: receiverUrl, events: ['payout.paid'] })).statusCode).toBe(403);
    expect((await t.call('POST', '/api/admin/webhooks', null, { url: receiverUrl, events: ['payout.paid'] })).statusCode).toBe(401);

    const created = await addEndpoint(['payment.succeeded', 'payout.paid']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
    expect(row!.secret.startsWith('v1.')).toBe(true);
    expect(row!.secret).not.toContain(created.secret);

    const list = await t.call('GET', '/api/admin/webhooks', admin);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret);
    expect(list.json().endpoints).toEqual([expect.objectContaining({ id: created.id, url: receiverUrl, events: ['payment.succeeded', 'payout.paid'] })]);
    expect((await t.call('GET', `/api/admin/webhooks/${created.id}`, admin)).body).not.toContain(created.secret);
    expect((await t.call('GET', '/api/admin/webhooks', artist)).statusCode).toBe(403);

    expect((await t.call('DELETE', `/api/admin/webhooks/${created.id}`, artist)).statusCode).toBe(403);
    expect((await t.call('DELETE', `/api/admin/webhooks/${created.id}`, admin)).statusCode).toBe(204);
    expect((await t.call('DELETE', `/api/admin/webhooks/${created.id}`, admin)).statusCode).toBe(404);
    expect((await t.call('GET', `/api/admin/webhooks/${created.id}/deliveries`, admin)).statusCode).toBe(404);
  });

  it('queues the event in the transaction of the fact, for subscribed endpoints only; a refused change queues nothing', async () => {
    const statuses = await addEndpoint(['submission.status_changed']);
    const money = await addEndpoint(['payout.paid']);
    const submission = await createSubmissionRow(t.db, artist, { songTitle: 'Paper Lanterns' });
    await approve(submission.id);
    const deliveries = await t.db.select().from(webhookDeliveries).innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId));
    expect(deliveries.map((d) => [d.webhook_deliveries.endpointId, d.webhook_events.type])).toEqual([[statuses.id, 'submission.status_changed']]);
    expect(deliveries[0]!.webhook_events.data).toMatchObject({ submissionId: submission.id, from: 'pending', to: 'approved', reason: 'review' });
    expect(money.id).toBeDefined();
    // A move the table refuses rolls back, event and all.
    const refused = await t.call('PATCH', `/api/admin/submissions/${submission.id}/status`, admin, { status: 'draft' });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(await t.db.select().from(webhookEvents)).toHaveLength(1);
  });
});

describe('delivery', () => {
  it('a restart between queueing and delivery loses nothing: the next server sends it, signed, once', async () => {
    const endpoint = await addEndpoint();
    const submission = await createSubmissionRow(t.db, artist, { songTitle: 'After the Storm' });
    await approve(submission.id);
    // Queued and committed; no dispatcher has looked since (the app's first look is an hour away): not attempted.
    expect(await t.db.select({ status: webhookDeliveries.status, attempts: webhookDeliveries.attempts }).from(webhookDeliveries)).toEqual([
      { status: 'pending', attempts: 0 },
    ]);
    expect(received).toHaveLength(0);
    const restarted = await secondInstance(t, { webhookPollMs: 100 });
    try {
      await waitFor(() => received.length >= 1, { what: 'the delivery after the restart' });
      const [delivery] = received;
      expect(delivery!.json).toMatchObject({ type: 'submission.status_changed', data: { submissionId: submission.id, to: 'approved' } });
      expect(verifies(endpoint.secret, delivery!.headers['hub-signature'] as string, delivery!.body)).toBe(true);
      expect(verifies('whsec_wrong', delivery!.headers['hub-signature'] as string, delivery!.body)).toBe(false);
      expect(delivery!.headers['content-type']).toBe('application/json');
      await waitFor(async () => (await t.db.select().from(webhookDeliveries)).every((r) => r.status === 'delivered'), { what: 'delivered' });
      // Stopping the server waits for any attempt under way: whatever it was going to send has arrived.
      await restarted.close();
      expect(received).toHaveLength(1);
      expect(await t.db.select().from(webhookAttempts)).toHaveLength(1);
    } finally {
      await restarted.close();
    }
  });

  it('a receiver that fails and then succeeds gets the same event id again; the attempts list their status codes', async () => {
    const endpoint = await addEndpoint(['submission.status_changed']);
    answers = [500];
    const worker = await secondInstance(t, { webhookPollMs: 100 });
    try {
      const ping = await t.call('POST', `/api/admin/webhooks/${endpoint.id}/ping`, admin);
      expect(ping.statusCode).toBe(202);
      await waitFor(() => received.length >= 1, { what: 'the first attempt' });
      const [delivery] = await waitFor(
        async () => {
          const rows = await t.db.select().from(webhookDeliveries);
          return rows[0]?.attempts === 1 && rows[0].leaseUntil === null && rows;
        },
        { what: 'the failure recorded' },
      );
      expect(delivery!.status).toBe('pending');
      // The first retry is due within a minute.
      expect(delivery!.nextAttemptAt.getTime() - Date.now()).toBeLessThanOrEqual(60_000);
      expect(delivery!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
      // Time passes: the retry is due now.
      await t.db.update(webhookDeliveries).set({ nextAttemptAt: new Date(Date.now() - 1000) }).where(eq(webhookDeliveries.id, delivery!.id));
      await waitFor(() => received.length >= 2, { what: 'the retry' });
      expect(received[1]!.json.id).toBe(received[0]!.json.id);
      expect(received[1]!.json.id).toBe(ping.json().eventId);
      expect(received[1]!.body).toBe(received[0]!.body);
      expect(received[0]!.json.type).toBe('ping');

      const list = await waitFor(
        async () => {
          const body = (await t.call('GET', `/api/admin/webhooks/${endpoint.id}/deliveries`, admin)).json();
          return body.attempts.length === 2 && body;
        },
        { what: 'both attempts listed' },
      );
      expect(list.attempts.map((a: { attempt: number; statusCode: number; deliveryStatus: string }) => [a.attempt, a.statusCode, a.deliveryStatus])).toEqual([
        [2, 200, 'delivered'],
        [1, 500, 'delivered'],
      ]);
      const listed = await t.call('GET', '/api/admin/webhooks', admin);
      expect(listed.json().endpoints[0].lastDelivery).toMatchObject({ statusCode: 200, error: null });
    } finally {
      await worker.close();
    }
  });

  it('gives up after the twelfth attempt, and an endpoint silent for 10 s has failed that attempt', async () => {
    const endpoint = await addEndpoint(['submission.status_changed']);
    answers = [503];
    const ping = await t.call('POST', `/api/admin/webhooks/${endpoint.id}/ping`, admin);
    // Eleven attempts already failed (as if a day had passed).
    await t.db.update(webhookDeliveries).set({ attempts: WEBHOOK_MAX_ATTEMPTS - 1 });
    const worker = await secondInstance(t, { webhookPollMs: 100 });
    try {
      const [given] = await waitFor(
        async () => {
          const rows = await t.db.select().from(webhookDeliveries);
          return rows[0] !== undefined && rows[0].status !== 'pending' && rows;
        },
        { what: 'the twelfth attempt' },
      );
      expect(given).toMatchObject({ status: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS });
      expect(received.map((r) => r.json.id)).toEqual([ping.json().eventId]);

      const slowUrl = receiverUrl.replace('/hooks/hub', '/slow');
      const slow = await t.call('POST', '/api/admin/webhooks', admin, { url: slowUrl, events: ['payout.paid'] });
      expect(slow.statusCode).toBe(201);
      expect((await t.call('POST', `/api/admin/webhooks/${slow.json().id}/ping`, admin)).statusCode).toBe(202);
      const attempts = await waitFor(
        async () => {
          const rows = await t.db.select().from(webhookAttempts).innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId));
          return rows.some((r) => r.webhook_deliveries.endpointId === slow.json().id) && rows;
        },
        { what: 'the timed-out attempt', timeoutMs: 30_000 },
      );
      const timedOut = attempts.find((r) => r.webhook_deliveries.endpointId === slow.json().id)!;
      expect(timedOut.webhook_attempts.statusCode).toBeNull();
      expect(timedOut.webhook_attempts.error).toMatch(/No answer within 10 s/);
      expect(timedOut.webhook_attempts.durationMs).toBeGreaterThanOrEqual(9_900);
      expect(timedOut.webhook_deliveries.status).toBe('pending');
    } finally {
      await worker.close();
    }
  }, 60_000);

  it('two instances deliver each event once per endpoint', async () => {
    const first = await addEndpoint(['submission.status_changed']);
    const second = await addEndpoint(['submission.status_changed']);
    for (let i = 0; i < 6; i++) {
      const submission = await createSubmissionRow(t.db, artist, { songTitle: `Track ${i + 1}` });
      await approve(submission.id);
    }
    const [a, b] = await Promise.all([secondInstance(t, { webhookPollMs: 20 }), secondInstance(t, { webhookPollMs: 20 })]);
    try {
      await waitFor(
        async () => {
          const rows = await t.db.select().from(webhookDeliveries);
          return rows.length === 12 && rows.every((r) => r.status === 'delivered');
        },
        { what: 'all 12 deliveries' },
      );
      // Stopping both waits for any attempt under way: a second sending of any delivery has arrived by then.
      await Promise.all([a.close(), b.close()]);
      const keys = received.map((r) => `${r.json.id}`);
      expect(received).toHaveLength(12);
      // Each event reached each endpoint once: 6 events × 2 endpoints, each event id twice.
      const perEvent = new Map<string, number>();
      for (const key of keys) perEvent.set(key, (perEvent.get(key) ?? 0) + 1);
      expect([...perEvent.values()]).toEqual([2, 2, 2, 2, 2, 2]);
      expect(await t.db.select().from(webhookAttempts)).toHaveLength(12);
      expect(first.secret).not.toBe(second.secret);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('refuses private and loopback addresses without WEBHOOK_ALLOW_PRIVATE, when adding and again when connecting', async () => {
    for (const url of ['http://127.0.0.1/hook', 'http://localhost:8080/hook', 'http://10.1.2.3/hook', 'http://[::1]/hook', 'http://192.168.0.10/', 'http://169.254.169.254/latest']) {
      expect(await privateAddressOf(new URL(url)), url).not.toBeNull();
    }
    expect(await privateAddressOf(new URL('https://93.184.215.14/hook'))).toBeNull();

    const strict = await secondInstance(t, { config: { ...t.config, webhooks: { allowPrivate: false } }, webhookPollMs: 100 });
    try {
      const cookie = await t.signIn(admin);
      const refused = await strict.app.inject({
        method: 'POST',
        url: '/api/admin/webhooks',
        headers: { ...headers(cookie), 'content-type': 'application/json' },
        payload: JSON.stringify({ url: receiverUrl, events: ['payout.paid'] }),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'webhook_url_private' });
      // Saved while allowed (or a name whose DNS changed since): the strict instance still refuses to connect.
      const endpoint = await addEndpoint(['submission.status_changed']);
      const ping = await t.call('POST', `/api/admin/webhooks/${endpoint.id}/ping`, admin);
      expect(ping.statusCode).toBe(202);
      const [attempt] = await waitFor(
        async () => {
          const rows = await t.db.select().from(webhookAttempts);
          return rows.length >= 1 && rows;
        },
        { what: 'the refused attempt' },
      );
      expect(attempt!.statusCode).toBeNull();
      expect(attempt!.error).toMatch(/not allowed/i);
      expect(received).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});

describe('every event, from its one writer', () => {
  it('submission.created, agreement.signed, publication.published, earning.created, payment.succeeded, refund.created and payout.paid are queued with their facts', async () => {
    await addEndpoint([...WEBHOOK_EVENT_TYPES]);
    const typesOf = async () =>
      (await t.db.select({ type: webhookEvents.type, data: webhookEvents.data }).from(webhookEvents)).map((e) => ({ type: e.type, data: e.data }));

    // Sent to the label: created, and its first status.
    const sent = await t.call('POST', '/api/submissions', artist, linkSubmission({ songTitle: 'Northern Lights', artistName: 'Ada Reyes' }));
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json().id as string;
    expect(await typesOf()).toEqual([
      { type: 'submission.created', data: expect.objectContaining({ submissionId: id, songTitle: 'Northern Lights', artistName: 'Ada Reyes' }) },
      { type: 'submission.status_changed', data: expect.objectContaining({ submissionId: id, from: 'draft', to: 'pending', reason: 'submitted' }) },
    ]);

    // Approved and signed.
    await approve(id);
    expect((await t.call('GET', `/api/submissions/${id}/agreement`, artist)).statusCode).toBe(200);
    const signed = await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Ada Reyes', consent: true });
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await typesOf()).filter((e) => e.type === 'agreement.signed')).toEqual([
      { type: 'agreement.signed', data: expect.objectContaining({ submissionId: id, ownerName: expect.any(String), status: 'signed' }) },
    ]);

    // Published after the artist's third hit: the publication and the bonus it earns.
    for (let i = 0; i < 3; i++) {
      const hit = await createSubmissionRow(t.db, artist, { songTitle: `Hit ${i + 1}`, status: 'published' });
      await t.db.insert(publications).values({
        submissionId: hit.id,
        videoUrl: `https://www.youtube.com/watch?v=hit${i}`,
        publishedAt: new Date(Date.now() - 30 * 86_400_000),
        subscriberCount: 10_000,
        subscriberSource: 'admin',
        checkAt: new Date(Date.now() - 16 * 86_400_000),
        checkedAt: new Date(Date.now() - 16 * 86_400_000),
        viewsAt14Days: 50_000,
        viralHit: true,
        hitRecordedAt: new Date(Date.now() - 16 * 86_400_000),
      });
    }
    await clearRights(t.db, id);
    const published = await t.call('PUT', `/api/admin/submissions/${id}/publication`, admin, {
      videoUrl: 'https://www.youtube.com/watch?v=northern',
      publishedAt: new Date().toISOString(),
      subscriberCount: 12_000,
    });
    expect(published.statusCode, published.body).toBe(200);
    const events = await typesOf();
    expect(events.find((e) => e.type === 'publication.published')?.data).toMatchObject({ submissionId: id, videoUrl: 'https://www.youtube.com/watch?v=northern' });
    expect(events.find((e) => e.type === 'earning.created')?.data).toMatchObject({ submissionId: id, amount: expect.any(String) });

    // Paid by hand: payout.paid.
    const paid = await t.db.transaction((tx) => markEarningPaid(tx, { submissionId: id, by: admin.id, transferId: null, now: new Date() }));
    expect(paid.status).toBe('paid');
    expect((await typesOf()).find((e) => e.type === 'payout.paid')?.data).toMatchObject({ submissionId: id, transferId: null });

    // A paid plan: the payment succeeds, then is refunded.
    const paidPlan = await createSubmissionRow(t.db, artist, { songTitle: 'Copper Sky', pricingTier: 'premium' });
    const target = { id: paidPlan.id, userId: artist.id, status: paidPlan.status, paymentStatus: paidPlan.paymentStatus };
    await t.db.transaction((tx) => markPaymentSucceeded(tx, target, { paymentIntentId: 'pi_copper', dueAt: null, joinsQueue: true }));
    await t.db.transaction((tx) => markPaymentRefunded(tx, { ...target, status: 'pending', paymentStatus: 'succeeded' }, { by: admin.id, now: new Date() }));
    const money = (await typesOf()).filter((e) => e.type === 'payment.succeeded' || e.type === 'refund.created');
    expect(money).toEqual([
      { type: 'payment.succeeded', data: expect.objectContaining({ submissionId: paidPlan.id, paymentIntentId: 'pi_copper', amount: paidPlan.amount }) },
      { type: 'refund.created', data: expect.objectContaining({ submissionId: paidPlan.id }) },
    ]);
  });
});
