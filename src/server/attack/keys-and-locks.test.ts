import path from 'node:path';
import { Readable } from 'node:stream';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery } from '@shared/production';
import { eq } from 'drizzle-orm';
import { sessions, type UserRow } from '../platform/db/schema';
import { SESSION_COOKIE } from '../platform/sessions';
import { LocalObjectStorage } from '../platform/storage/local-storage';
import { objectKey } from '../platform/storage/object-storage';
import { RATE_LIMITS } from '../platform/rate-limits';
import { createAdmin, createArtist, createStoredUpload, createSubmissionRow, createTestApp, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../test/helpers';
import { deliverableObjectPath } from '../test/production-fixtures';
import { startStripeStub, type StripeStub } from '../test/stripe-stub';

/**
 * Issue 32's probe ("Keys and locks"), one test per finding, each failing before its fix: session
 * ids a database dump would give away, numbers no column can store, forged cursors, Stripe events
 * without an object, documents served inline, writes without a limit. The archive itself (no
 * secret in any byte, a restore on a new secret, a restore that fails) is tested in
 * features/operations/backup.test.ts, the move in move-to-postgres.test.ts, the sign-in lockout in
 * rate-limits.test.ts.
 */

const WEBHOOK_SECRET = 'whsec_keys_and_locks';
let t: TestApp;
let stub: StripeStub;
let admin: UserRow;
let adminCookie: string;
let artist: UserRow;
let artistCookie: string;

beforeAll(async () => {
  stub = await startStripeStub();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_keys',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
  });
  admin = await createAdmin(t.db);
  adminCookie = await t.signIn(admin);
  artist = await createArtist(t.db);
  artistCookie = await t.signIn(artist);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

/** Numbers a JSON body can carry that no column stores: below a `real`'s smallest, denormals, beyond a double or a bigint. */
const UNSTORABLE = ['1e-320', '1e-46', '5e-324', '-1e-40', '1e309', '-1e309', '1e300', '9007199254740993'];

describe('finding 1: a database dump opens no session', () => {
  it('signing the session ids the database holds, as the probe did with the secret, gives no session', async () => {
    const owner = await createAdmin(t.db);
    const cookies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { origin: TEST_ORIGIN }, payload: { email: owner.email, password: TEST_PASSWORD } });
      expect(login.statusCode).toBe(200);
      cookies.push(`${SESSION_COOKIE}=${login.cookies.find((c) => c.name === SESSION_COOKIE)!.value}`);
    }
    for (const cookie of cookies) expect((await t.call('GET', '/api/user', cookie)).json<{ role: string }>().role).toBe('admin');
    const stored = await t.db.select({ sid: sessions.sid }).from(sessions).where(eq(sessions.userId, owner.id));
    expect(stored).toHaveLength(3);
    for (const { sid } of stored) {
      expect((await t.call('GET', '/api/user', `${SESSION_COOKIE}=${t.app.signCookie(sid)}`)).statusCode).toBe(401);
    }
  });
});

describe('finding 3: a number no column can store is a 400, never a 500', () => {
  it("on a delivery's comments (the artist) and the team's track comments (an admin), at every extreme", async () => {
    const submission = await createSubmissionRow(t.db, artist, { status: 'in_creation' });
    const objectPath = await deliverableObjectPath(t.app, adminCookie, 'audio');
    const delivered = await t.call('POST', `/api/admin/submissions/${submission.id}/deliverables`, adminCookie, { objectPaths: [objectPath], note: null });
    expect(delivered.statusCode).toBe(201);
    const delivery = delivered.json<Delivery>();
    const targets = [
      { url: `/api/submissions/${submission.id}/deliveries/${delivery.id}/comments`, cookie: artistCookie },
      { url: `/api/admin/submissions/${submission.id}/comments`, cookie: adminCookie },
    ];
    for (const { url, cookie } of targets) {
      for (const number of UNSTORABLE) {
        // Written into the JSON text as is: JSON.stringify would turn 1e309 into null.
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
          payload: `{"text":"x","atSeconds":${number}}`,
        });
        expect({ url, number, status: res.statusCode }).toEqual({ url, number, status: 400 });
        expect(res.json<{ code: string }>().code).toBe('validation_failed');
      }
      // Zero, negative zero and ordinary moments are stored.
      for (const number of ['0', '-0', '12.5']) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { cookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
          payload: `{"text":"fine","atSeconds":${number}}`,
        });
        expect({ url, number, status: res.statusCode }).toEqual({ url, number, status: 201 });
      }
    }
  });
});

describe('finding 4: a forged cursor is a 400', () => {
  it('for every timestamp that has the shape but is no time, on the conversations list of an admin', async () => {
    const forged = [
      ['2024-13-45 25:61:61', 'x'],
      ['0000-01-01 00:00:00', 'x'],
      ['2024-01-01 00:00:00+99:99', 'x'],
      ['2023-02-29 00:00:00', 'x'],
      ['2024-04-31 12:00:00Z', 'x'],
      ['2024-01-01 24:00:00', 'x'],
    ];
    for (const key of forged) {
      const cursor = Buffer.from(JSON.stringify(key)).toString('base64url');
      const res = await t.call('GET', `/api/messages/conversations?cursor=${cursor}`, adminCookie);
      expect({ key, status: res.statusCode }).toEqual({ key, status: 400 });
      expect(res.json<{ code: string }>().code).toBe('invalid_cursor');
    }
    // A real time (a leap day, an offset) still pages.
    for (const at of ['2024-02-29 23:59:59.123456+00', '2024-06-30 10:00:00-09:30']) {
      const cursor = Buffer.from(JSON.stringify([at, 'x'])).toString('base64url');
      expect((await t.call('GET', `/api/messages/conversations?cursor=${cursor}`, adminCookie)).statusCode).toBe(200);
    }
  });
});

describe('finding 4: a signed Stripe event without an object or an id', () => {
  it('is acknowledged (2xx) and ignored', async () => {
    const events = [
      { id: 'evt_no_object', object: 'event', type: 'payment_intent.succeeded', data: {} },
      { id: 'evt_null_object', object: 'event', type: 'payment_intent.succeeded', data: { object: null } },
      { object: 'event', type: 'payment_intent.succeeded', data: { object: { object: 'payment_intent', amount: 100 } } },
      { id: 'evt_no_data', object: 'event', type: 'charge.refunded' },
      { id: 'evt_account', object: 'event', type: 'account.updated', data: { object: {} } },
      { object: 'event' },
    ];
    for (const event of events) {
      const payload = JSON.stringify(event);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
        payload,
      });
      expect({ event, status: res.statusCode }).toEqual({ event, status: 200 });
    }
  });
});

describe('finding 5: files the artist sent open as downloads', () => {
  it('a PDF (or any document) is an attachment with CSP sandbox; images, audio and video may play inline, sandboxed too', async () => {
    const storage = new LocalObjectStorage(path.join(t.config.dataDir, 'objects'));
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF\n');
    const cases = [
      { contentType: 'application/pdf', disposition: 'attachment' },
      { contentType: 'text/plain', disposition: 'attachment' },
      { contentType: 'image/svg+xml', disposition: 'attachment' },
      { contentType: 'audio/mpeg', disposition: 'inline' },
      { contentType: 'image/png', disposition: 'inline' },
      { contentType: 'video/mp4', disposition: 'inline' },
    ];
    for (const { contentType, disposition } of cases) {
      const upload = await createStoredUpload(t.db, artist, { contentType, size: pdf.length });
      await storage.receive(objectKey('uploads', upload.id), Readable.from([pdf]), pdf.length);
      for (const cookie of [adminCookie, artistCookie]) {
        const res = await t.call('GET', upload.path, cookie);
        expect(res.statusCode).toBe(200);
        expect({ contentType, disposition: res.headers['content-disposition'] }).toEqual({ contentType, disposition });
        expect(res.headers['content-security-policy']).toBe('sandbox');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        // A range of it (a player seeking) too.
        const part = await t.app.inject({ method: 'GET', url: upload.path, headers: { cookie, range: 'bytes=0-3' } });
        expect(part.statusCode).toBe(206);
        expect(part.headers['content-security-policy']).toBe('sandbox');
      }
    }
  });

  it("a delivery's file from the artist's side is sandboxed as well", async () => {
    const submission = await createSubmissionRow(t.db, artist, { status: 'in_creation' });
    const objectPath = await deliverableObjectPath(t.app, adminCookie, 'image');
    const delivered = await t.call('POST', `/api/admin/submissions/${submission.id}/deliverables`, adminCookie, { objectPaths: [objectPath], note: null });
    const file = delivered.json<Delivery>().files[0]!;
    const res = await t.call('GET', `/api/submissions/${submission.id}/deliverables/${file.id}`, artistCookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('inline');
    expect(res.headers['content-security-policy']).toBe('sandbox');
  });
});

describe('finding 7: writes that fan out or call a provider share the limiter, with Retry-After', () => {
  const statuses = (responses: { statusCode: number }[]) => responses.map((r) => r.statusCode);

  it('100 comments at once on a delivery: as many as the limit are written, the rest are 429 with Retry-After', async () => {
    const owner = await createArtist(t.db);
    const ownerCookie = await t.signIn(owner);
    const submission = await createSubmissionRow(t.db, owner, { status: 'in_creation' });
    const objectPath = await deliverableObjectPath(t.app, adminCookie, 'audio');
    const delivery = (await t.call('POST', `/api/admin/submissions/${submission.id}/deliverables`, adminCookie, { objectPaths: [objectPath], note: null })).json<Delivery>();
    const url = `/api/submissions/${submission.id}/deliveries/${delivery.id}/comments`;
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => t.call('POST', url, ownerCookie, { text: `note ${i}`, atSeconds: 1 })));
    const max = RATE_LIMITS.comments.max;
    expect(statuses(results).filter((s) => s === 201)).toHaveLength(max);
    expect(statuses(results).filter((s) => s === 429)).toHaveLength(100 - max);
    for (const refused of results.filter((r) => r.statusCode === 429)) expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.call('GET', url, ownerCookie)).json<unknown[]>()).toHaveLength(max);
  });

  it("the team's track comments, deliveries and publications, and an artist's payout links, are limited per user", async () => {
    const reviewer = await createAdmin(t.db);
    const reviewerCookie = await t.signIn(reviewer);
    const payee = await createArtist(t.db);
    const payeeCookie = await t.signIn(payee);
    const submission = await createSubmissionRow(t.db, payee, { status: 'in_creation' });
    const cases = [
      { name: 'comments', method: 'POST', url: `/api/admin/submissions/${submission.id}/comments`, cookie: reviewerCookie, body: { text: 'x', atSeconds: 1 } },
      { name: 'deliveries', method: 'POST', url: `/api/admin/submissions/${submission.id}/deliverables`, cookie: reviewerCookie, body: { objectPaths: [], note: null } },
      { name: 'publications', method: 'POST', url: `/api/admin/submissions/${submission.id}/youtube`, cookie: reviewerCookie, body: {} },
      { name: 'payoutLinks', method: 'POST', url: '/api/payouts/account', cookie: payeeCookie, body: {} },
    ] as const;
    for (const { name, method, url, cookie, body } of cases) {
      const max = RATE_LIMITS[name].max;
      const answers = [];
      for (let i = 0; i < max; i++) answers.push((await t.call(method, url, cookie, body)).statusCode);
      expect({ name, refused: answers.filter((s) => s === 429 || s >= 500) }).toEqual({ name, refused: [] });
      const refused = await t.call(method, url, cookie, body);
      expect({ name, status: refused.statusCode }).toEqual({ name, status: 429 });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The refused payout call made no link at Stripe.
    expect(stub.accountLinks.length).toBe(RATE_LIMITS.payoutLinks.max);
  });
});
