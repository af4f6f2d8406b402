import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubmissionRow, UserRow } from '../platform/db/schema';
import { issueBillingDocument } from '../domain/billing/issue-document';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, TEST_ORIGIN, type Method, type TestApp } from '../test/helpers';
import {
  fillParams,
  isAdminRoute,
  isPublic,
  percentEncodedVariants,
  routeCollector,
  snapshotDatabase,
  staticSegmentIndexes,
  type WalkedRoute,
} from './attack-support';

/**
 * CONTRACT §9 and issue 9 part 1: walks every route the app registers — those added later
 * included, since they are collected as they register — and checks its guard, on the plain path
 * and on percent-encoded spellings of it, with real record ids in the path so that a refused
 * write would show in the database.
 */
const collector = routeCollector();
let t: TestApp;
let artist: UserRow;
let artistCookie: string;
let admin: UserRow;
let adminCookie: string;
let victim: UserRow;
let victimSubmission: SubmissionRow;
/** The victim's invoice number: GET /api/billing/documents/{number}.pdf is walked on a real one (CONTRACT §21). */
let victimDocument: string;

beforeAll(async () => {
  // A distinct client address per call: per-address rate limits never pool the walk. With
  // METRICS_TOKEN set, GET /metrics is a guarded route: the bearer token is its guard.
  t = await createTestApp({ METRICS_TOKEN: 'route-walk-metrics-token-0123' }, { onRoute: collector.collect, addressPerCall: true });
  victim = await createArtist(t.db, { artistName: 'Victim' });
  victimSubmission = await createSubmissionRow(t.db, victim, { adminNotes: 'internal note' });
  // An issued invoice and credit note (CONTRACT §19), so that the document routes have a real PDF to guard.
  for (const kind of ['invoice', 'credit_note'] as const) {
    const issued = await t.db.transaction((tx) =>
      issueBillingDocument(tx, { kind, submission: victimSubmission, stripePaymentIntentId: 'pi_walk', amountCents: 4900, currency: 'usd', seller: {} }),
    );
    if (kind === 'invoice') victimDocument = issued.number;
  }
  artist = await createArtist(t.db);
  artistCookie = await t.signIn(artist);
  admin = await createAdmin(t.db);
  adminCookie = await t.signIn(admin);
});
afterAll(() => t?.close());

/** Real ids of someone else's records, so that a guard that failed would act on real rows. */
const paramValue = (name: string) =>
  name === 'number' ? victimDocument : name === 'year' ? '2026' : name === 'ownerId' ? '1' : /user/i.test(name) ? victim.id : victimSubmission.id;

const call = (route: WalkedRoute, path: string, cookie?: string) =>
  t.call(route.method as Method, path, cookie, ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) ? {} : undefined);

const guarded = () => collector.routes.filter((route) => !isPublic(route));
const adminRoutes = () => collector.routes.filter(isAdminRoute);

describe('every registered route', () => {
  it('is collected, the admin desk and the WebSocket included', () => {
    const names = collector.routes.map((r) => `${r.method} ${r.url}`);
    expect(names).toContain('DELETE /api/admin/submissions/:id');
    expect(names).toContain('GET /api/submissions');
    expect(names).toContain('GET /ws');
    // CONTRACT §19's payouts: the artist's account and the team's transfer.
    expect(names).toEqual(expect.arrayContaining(['GET /api/payouts/account', 'POST /api/payouts/account', 'POST /api/admin/bonus/earnings/:submissionId/pay']));
    expect(names).toEqual(expect.arrayContaining(['GET /api/billing', 'GET /api/submissions/:id/invoice.pdf', 'GET /api/submissions/:id/credit-note.pdf']));
    expect(names).toContain('GET /api/billing/documents/:number.pdf');
    // Issue 24: the channel and publishing on it.
    for (const route of [
      'GET /api/admin/channel',
      'GET /api/admin/channel/connect',
      'GET /api/admin/channel/callback',
      'DELETE /api/admin/channel',
      'GET /api/admin/submissions/:id/publication-draft',
      'POST /api/admin/submissions/:id/youtube',
      'GET /api/admin/submissions/:id/youtube',
      // CONTRACT §23: cancelling a publication.
      'DELETE /api/admin/submissions/:id/youtube',
      // CONTRACT §25: the team's decision on a suspect viral hit.
      'POST /api/admin/submissions/:id/viral-review',
    ]) {
      expect(names).toContain(route);
    }
    // CONTRACT §18: a message's files.
    expect(names).toContain('PUT /api/attachment-files');
    // CONTRACT §26: an admin away and back.
    expect(names).toEqual(expect.arrayContaining(['GET /api/admin/me/availability', 'PUT /api/admin/me/availability']));
    // CONTRACT §22: owners, the agreement and its signing links, the desk's rights step.
    expect(names).toEqual(
      expect.arrayContaining([
        'PUT /api/submissions/:id/owners',
        'GET /api/submissions/:id/agreement',
        'POST /api/submissions/:id/agreement/sign',
        'GET /api/submissions/:id/agreement.pdf',
        'GET /api/sign/:token',
        'POST /api/sign/:token',
        'GET /api/sign/:token/agreement.pdf',
        'GET /api/admin/submissions/:id/rights',
        'POST /api/admin/submissions/:id/allowlist',
        'GET /api/admin/submissions/:id/allowlist-letter.pdf',
      ]),
    );
    // CONTRACT §28: the handover packages and the webhooks.
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /api/admin/submissions/:id/release.zip',
        'GET /api/admin/submissions/:id/evidence.zip',
        'GET /api/admin/webhooks',
        'POST /api/admin/webhooks',
        'GET /api/admin/webhooks/:id',
        'DELETE /api/admin/webhooks/:id',
        'POST /api/admin/webhooks/:id/ping',
        'GET /api/admin/webhooks/:id/deliveries',
      ]),
    );
    // CONTRACT §24: payees, tax forms, statements and the accountant's CSV.
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /api/payouts/tax-form',
        'POST /api/payouts/tax-form',
        'GET /api/payouts/tax-form.pdf',
        'GET /api/payouts/statements',
        'GET /api/payouts/statements/:year.pdf',
        'PUT /api/submissions/:id/owners/:ownerId/email',
        'POST /api/payee/link',
        'GET /api/payee/:token',
        'POST /api/payee/:token/payout-account',
        'POST /api/payee/:token/tax-form',
        'GET /api/payee/:token/tax-form.pdf',
        'GET /api/payee/:token/statements',
        'GET /api/payee/:token/statements/:year.pdf',
        'GET /api/admin/payees',
        'POST /api/admin/payees/:payeeId/invite',
        'GET /api/admin/payees/:payeeId/tax-form.pdf',
        'GET /api/admin/payouts/:year.csv',
      ]),
    );
    // Issue 33 part 4: what the artists did that an admin has not seen.
    expect(names).toEqual(expect.arrayContaining(['GET /api/admin/activity', 'POST /api/admin/activity/seen']));
    // CONTRACT §27: a submission's versions, sent by its owner, read by its owner and the team.
    expect(names).toEqual(expect.arrayContaining(['POST /api/submissions/:id/versions', 'GET /api/submissions/:id/versions']));
    expect(collector.routes.length).toBeGreaterThan(30);
  });

  it('answers 401 signed out unless it is on the public list, on every spelling of its path', async () => {
    const before = await snapshotDatabase(t.db);
    const wrong: string[] = [];
    for (const route of guarded()) {
      const path = fillParams(route.url, paramValue);
      for (const spelling of [path, ...percentEncodedVariants(path, staticSegmentIndexes(route.url))]) {
        const res = await call(route, spelling);
        if (res.statusCode !== 401) wrong.push(`${route.method} ${spelling} → ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    // Finding 1: a refused DELETE had already deleted. Nothing may have changed.
    expect(await snapshotDatabase(t.db)).toEqual(before);
  });

  it('answers 403 to an artist on every admin route, on every spelling, changing nothing', async () => {
    const before = await snapshotDatabase(t.db);
    const wrong: string[] = [];
    expect(adminRoutes().length).toBeGreaterThan(5);
    for (const route of adminRoutes()) {
      const path = fillParams(route.url, paramValue);
      for (const spelling of [path, ...percentEncodedVariants(path, staticSegmentIndexes(route.url))]) {
        const res = await call(route, spelling, artistCookie);
        if (res.statusCode !== 403) wrong.push(`${route.method} ${spelling} → ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshotDatabase(t.db)).toEqual(before);
  });

  it('lets an admin through every admin route (the guard is the only difference)', async () => {
    for (const route of adminRoutes().filter((r) => r.method === 'GET')) {
      const res = await call(route, fillParams(route.url, paramValue), adminCookie);
      // The channel's OAuth round trip answers with redirects (to the issuer, or back to /admin/channel).
      // The allowlist letter names the channel: none is connected in this app (409 channel_not_connected).
      // The release package waits for a signed agreement (409 rights_incomplete, CONTRACT §28).
      const allowed = route.url.startsWith('/api/admin/channel/')
        ? [302]
        : route.url.endsWith('/allowlist-letter.pdf') || route.url.endsWith('/release.zip')
          ? [409]
          : [200, 404];
      expect(allowed, `${route.method} ${route.url}`).toContain(res.statusCode);
    }
  });

  it('answers public routes the same on every spelling of their path', async () => {
    const publicRoutes = collector.routes.filter(isPublic);
    expect(publicRoutes.length).toBeGreaterThan(5);
    for (const route of publicRoutes) {
      const path = fillParams(route.url, paramValue);
      const plain = await call(route, path);
      for (const spelling of percentEncodedVariants(path, staticSegmentIndexes(route.url))) {
        const res = await call(route, spelling);
        expect(res.statusCode, `${route.method} ${spelling}`).toBe(plain.statusCode);
      }
    }
  });

  it('sends the same policy headers on every spelling of a path: they follow the matched route, not the URL text', async () => {
    const POLICY_HEADERS = ['cross-origin-resource-policy', 'cache-control'];
    const wrong: string[] = [];
    // Reads only: the headers are decided before any handler runs, and the artist must stay signed in.
    const reads = collector.routes.filter((route) => route.method === 'GET' || route.method === 'HEAD');
    expect(reads.map((r) => `${r.method} ${r.url}`)).toContain('GET /objects/uploads/:id');
    for (const route of reads) {
      const path = fillParams(route.url, paramValue);
      const plain = await call(route, path, artistCookie);
      for (const spelling of percentEncodedVariants(path, staticSegmentIndexes(route.url))) {
        const res = await call(route, spelling, artistCookie);
        for (const name of POLICY_HEADERS) {
          if (res.headers[name] !== plain.headers[name]) {
            wrong.push(`${route.method} ${spelling}: ${name} ${String(res.headers[name])}, plain ${String(plain.headers[name])}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    // The two headers that were decided from the URL's text, spelled as an attacker would.
    const files = await call({ method: 'GET', url: '/objects/uploads/:id' }, `/%6Fbjects/uploads/${victimSubmission.id}`, artistCookie);
    expect(files.headers['cross-origin-resource-policy']).toBe('same-origin');
    const list = await call({ method: 'GET', url: '/api/submissions' }, '/api/%73ubmissions', artistCookie);
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('private, no-cache');
  });

  it('reads nothing and deletes nothing through the attacks of finding 1', async () => {
    for (const url of ['/api/%61dmin/submissions', '/api/adm%69n/submissions', '/%61pi/admin/submissions']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain(victim.email);
      expect(res.body).not.toContain('internal note');
    }
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/%61dmin/submissions/${victimSubmission.id}`,
      headers: { origin: TEST_ORIGIN },
    });
    expect(deleted.statusCode).toBe(401);
    const asAdmin = await t.app.inject({ url: `/api/admin/submissions/${victimSubmission.id}`, headers: { cookie: adminCookie } });
    expect(asAdmin.statusCode).toBe(200);
  });
});
