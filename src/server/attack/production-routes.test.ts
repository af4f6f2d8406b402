import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubmissionRow, UserRow } from '../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, type Method, type TestApp } from '../test/helpers';
import { snapshotDatabase } from './attack-support';

/**
 * Every route of the production feature (CONTRACT §13) under the attacks of CONTRACT §9: signed
 * out, another artist, an artist on the team's routes, a percent-encoded path, NUL, a huge
 * string, a wrong type, and the same write twice at the same moment. Nothing may change and no
 * answer may be a 5xx. (route-walk and fuzz cover them too, with every other route.)
 */
let t: TestApp;
let owner: UserRow;
let ownerCookie: string;
let intruderCookie: string;
let adminCookie: string;
let sub: SubmissionRow;

const ARTIST_ROUTES = (id: string) => [
  { method: 'GET', url: `/api/submissions/${id}/production` },
  { method: 'GET', url: `/api/submissions/${id}/deliverables` },
  { method: 'GET', url: `/api/submissions/${id}/deliverables.zip` },
  { method: 'GET', url: `/api/submissions/${id}/deliverables/some-file-id` },
  { method: 'POST', url: `/api/submissions/${id}/revisions`, payload: { note: 'Change it' } },
];
const TEAM_ROUTES = (id: string) => [
  { method: 'POST', url: `/api/admin/submissions/${id}/deliverables`, payload: { objectPaths: ['/objects/uploads/x'] } },
  { method: 'POST', url: `/api/admin/submissions/${id}/refund`, payload: {} },
  { method: 'PUT', url: `/api/admin/submissions/${id}/publication`, payload: { videoUrl: 'https://youtu.be/abcdefgh', publishedAt: new Date().toISOString(), subscriberCount: 10 } },
  { method: 'PUT', url: `/api/admin/submissions/${id}/views`, payload: { viewsAt14Days: 10 } },
  { method: 'POST', url: `/api/admin/submissions/${id}/viral-review`, payload: { decision: 'confirm', reason: 'Organic' } },
  { method: 'GET', url: '/api/admin/bonus' },
  { method: 'PATCH', url: `/api/admin/bonus/earnings/${id}`, payload: { status: 'paid' } },
  { method: 'POST', url: `/api/admin/bonus/earnings/${id}/pay`, payload: {} },
  { method: 'PUT', url: '/api/admin/deliverable-files', payload: { deliverableFileURL: '/objects/uploads/x' } },
];

beforeAll(async () => {
  t = await createTestApp();
  owner = await createArtist(t.db);
  ownerCookie = await t.signIn(owner);
  intruderCookie = await t.signIn(await createArtist(t.db));
  adminCookie = await t.signIn(await createAdmin(t.db));
  sub = await createSubmissionRow(t.db, owner, { pricingTier: 'professional', status: 'approved', paymentStatus: 'succeeded', deliveredAt: new Date() });
});
afterAll(() => t?.close());

type Route = { method: string; url: string; payload?: object };
const send = (route: Route, cookie?: string, url = route.url, payload = route.payload) => t.call(route.method as Method, url, cookie, payload);

describe('production routes under attack', () => {
  it('signed out → 401, another artist → 404, an artist on the team’s routes → 403; nothing changes', async () => {
    const before = await snapshotDatabase(t.db);
    for (const route of [...ARTIST_ROUTES(sub.id), ...TEAM_ROUTES(sub.id)]) {
      expect((await send(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
    }
    for (const route of ARTIST_ROUTES(sub.id)) {
      expect((await send(route, intruderCookie)).statusCode, `${route.method} ${route.url}`).toBe(404);
    }
    for (const route of TEAM_ROUTES(sub.id)) {
      expect((await send(route, ownerCookie)).statusCode, `${route.method} ${route.url}`).toBe(403);
      const encoded = route.url.replace('/api/admin/', '/api/%61dmin/');
      expect((await send(route, ownerCookie, encoded)).statusCode, `${route.method} ${encoded}`).toBe(403);
    }
    expect(await snapshotDatabase(t.db)).toEqual(before);
  });

  it('answers NUL, a huge string and wrong types with a 4xx (or 503 for the unconfigured Stripe), never a 500', async () => {
    const nasty = ['a\u0000b', 'x'.repeat(100_000), 12, null, ['a'], { a: 1 }];
    for (const route of [...ARTIST_ROUTES(sub.id), ...TEAM_ROUTES(sub.id)]) {
      const cookie = route.url.startsWith('/api/admin/') ? adminCookie : ownerCookie;
      for (const value of nasty) {
        const payload = route.payload ? Object.fromEntries(Object.keys(route.payload).map((k) => [k, value])) : undefined;
        const res = await send(route, cookie, route.url, payload);
        // 503 is "a configured dependency is missing" (no Stripe in this app): an answer, not a failure.
        const code = res.statusCode === 503 ? 499 : res.statusCode;
        expect(code, `${route.method} ${route.url} ${JSON.stringify(value)?.slice(0, 20)}`).toBeLessThan(500);
      }
      const badId = route.url.replace(sub.id, encodeURIComponent('a\u0000b'));
      if (badId !== route.url) expect((await send(route, cookie, badId)).statusCode).toBeGreaterThanOrEqual(400);
      const hugeId = route.url.replace(sub.id, 'x'.repeat(5000));
      if (hugeId !== route.url) expect([400, 404]).toContain((await send(route, cookie, hugeId)).statusCode);
    }
  });

  it('a revision sent twice at the same moment for the last one is taken once; a replayed one is refused', async () => {
    const route = ARTIST_ROUTES(sub.id).find((r) => r.url.endsWith('/revisions'))!;
    expect((await send(route, ownerCookie)).statusCode).toBe(201);
    expect((await send(route, ownerCookie)).statusCode).toBe(201);
    const both = await Promise.all([send(route, ownerCookie), send(route, ownerCookie)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await send(route, ownerCookie)).statusCode).toBe(409);
  });
});
