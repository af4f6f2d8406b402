import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@shared/errors';
import { RESUMABLE_UPLOADS_PATH } from '@shared/submissions';
import { deliveries, deliveryComments, type SubmissionRow, type UserRow } from '../platform/db/schema';
import { newId } from '../platform/ids';
import { issueBillingDocument } from '../domain/billing/issue-document';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, TEST_ORIGIN, type TestApp } from '../test/helpers';
import { fillParams, percentEncodedVariants, routeCollector, seededRandom, staticSegmentIndexes } from './attack-support';

/**
 * Issue 9 part 8: a seeded, bounded fuzzer over every registered route (those added later too),
 * as signed-out, artist and admin: each route × role pair at least once, then seeded random
 * pairs up to REQUESTS. Malformed paths, query strings, bodies and headers must all be answered
 * with a 4xx (or a success), never a 5xx, and nothing may be logged as a failure. The seed is
 * fixed, so a failure replays exactly.
 */
const SEED = 0x9e3779b9;
const REQUESTS = 2400;
/** Issue 22: requests in the tus protocol's own terms, its headers fuzzed, on the resumable-upload routes. */
const TUS_REQUESTS = 600;
const IN_FLIGHT = 8;

const collector = routeCollector();
const METRICS_TOKEN = 'fuzz-metrics-token-0123456789';
const errorLines: string[] = [];
let t: TestApp;
let artistCookie: string;
let adminCookie: string;
let victim: UserRow;
let submission: SubmissionRow;
const deliveryId = newId();
const commentId = newId();

beforeAll(async () => {
  t = await createTestApp(
    { METRICS_TOKEN },
    {
      onRoute: collector.collect,
      logger: {
        level: 'error',
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            errorLines.push(chunk.toString());
            done();
          },
        }),
      },
    },
  );
  const artist = await createArtist(t.db);
  artistCookie = await t.signIn(artist);
  adminCookie = await t.signIn(await createAdmin(t.db));
  victim = await createArtist(t.db);
  submission = await createSubmissionRow(t.db, victim);
  // A delivery with a comment (CONTRACT §17), so that the admin's requests reach past the lookups.
  await t.db.insert(deliveries).values({ id: deliveryId, submissionId: submission.id, version: 1 });
  await t.db.insert(deliveryComments).values({ id: commentId, deliveryId, submissionId: submission.id, text: 'Seed', authorRole: 'user', atSeconds: 1 });
  // An issued invoice and credit note (CONTRACT §19), so that the document routes have a real PDF to guard.
  for (const kind of ['invoice', 'credit_note'] as const) {
    await t.db.transaction((tx) =>
      issueBillingDocument(tx, { kind, submission: submission, stripePaymentIntentId: 'pi_walk', amountCents: 4900, currency: 'usd', seller: {} }),
    );
  }
}, 120_000);
afterAll(() => t?.close());

const random = seededRandom(SEED);
const { pick, int } = random;
const chance = (p: number) => random.next() < p;

const NUL = '\u0000';
/** Strings an attacker tries; none names a reachable host, so no request can leave the machine. */
const NASTY_STRINGS = [
  '',
  ' ',
  NUL,
  `a${NUL}b`,
  '\ud800',
  'x\udc00',
  '🎧'.repeat(50),
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '%',
  '\\',
  'null',
  'http://127.0.0.1:1/x',
  'http://[::1]:1/',
  'javascript:alert(1)',
  'ftp://nowhere.invalid/',
  '/objects/uploads/../../x',
  '/objects/uploads/00000000-0000-0000-0000-000000000000',
];
const FIELD_NAMES = [
  // Publishing on the channel (issue 24): POST …/youtube
  'objectPath',
  'title',
  'description',
  'tags',
  'privacyStatus',
  'publishAt',
  // A suspect viral hit's review (CONTRACT §25): POST …/viral-review
  'decision',
  'reason',
  'email',
  'password',
  'firstName',
  'lastName',
  'content',
  'toUserId',
  'attachments',
  'fileURL',
  'fileSize',
  'artistName',
  'songTitle',
  'status',
  'notes',
  'adminReview',
  'musicFileURL',
  'artworkFileURL',
  'referenceFileURLs',
  'characterFileURLs',
  'fileName',
  'url',
  'submissionId',
  'submissionMethod',
  'musicUrl',
  'pricingTier',
  'termsAccepted',
  'releaseStatus',
  'videoStyle',
  'role',
  'id',
  'userId',
  'q',
  'page',
  'text',
  'atSeconds',
  'fileId',
  'replyTo',
  'resolved',
  '__proto__',
  'constructor',
];

function nastyValue(depth = 0): unknown {
  switch (int(depth > 2 ? 6 : 9)) {
    case 0:
      return pick(NASTY_STRINGS);
    case 1:
      return 'x'.repeat(pick([256, 5_000, 70_000]));
    case 2:
      return pick([0, -1, 1e308, -0, 3.5, Number.MAX_SAFE_INTEGER + 2, ...NUMBER_EXTREMES]);
    case 3:
      return pick([true, false, null]);
    case 4:
      return pick([submission.id, victim.id, 'free', 'premium', 'approved', 'link', 'upload', 'released']);
    case 5:
      return `${pick(NASTY_STRINGS)}${int(1000)}`;
    case 6:
      return Array.from({ length: int(4) }, () => nastyValue(depth + 1));
    default:
      return nastyObject(depth + 1);
  }
}

function nastyObject(depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = int(6); i >= 0; i--) object[chance(0.9) ? pick(FIELD_NAMES) : pick(NASTY_STRINGS)] = nastyValue(depth);
  return object;
}

/**
 * Issue 32: numbers JavaScript reads but no column stores (below a `real`'s smallest, denormals)
 * or that JSON.stringify cannot write (beyond a double: written raw into the text below).
 */
const NUMBER_EXTREMES = [1e-320, 5e-324, 1e-46, -1e-40, 1e300];
const RAW_NUMBER_EXTREMES = ['1e309', '-1e309', '1e-320', '5e-324', '-0', '1e400', '0e-999999', '123456789012345678901234567890'];

/** Cursors with the shape of the server's (a timestamp and an id, base64url) but no time in them, or no shape at all. */
const FORGED_CURSORS = [
  ['2024-13-45 25:61:61', 'x'],
  ['0000-01-01 00:00:00', 'x'],
  ['2024-01-01 00:00:00+99:99', 'x'],
  ['2023-02-29 00:00:00', '\u0000'],
  [1e-320, 5],
  'not a cursor',
].map((key) => Buffer.from(JSON.stringify(key)).toString('base64url'));

/** A body as raw text: mostly JSON of nasty values, sometimes not JSON at all. */
function nastyBody(): { payload: string; contentType: string } {
  const json = 'application/json';
  switch (int(11)) {
    case 10:
      return { payload: `{"${pick(FIELD_NAMES)}": ${pick(RAW_NUMBER_EXTREMES)}, "text": "x", "atSeconds": ${pick(RAW_NUMBER_EXTREMES)}}`, contentType: json };
    case 0:
      return { payload: pick(['{"a":', '{', '[1,2', '{"email": "a" "b"}', 'undefined', '\u0000']), contentType: json };
    case 1:
      // Escapes JSON.stringify would never write: a raw NUL escape and lone surrogates.
      return { payload: `{"${pick(FIELD_NAMES)}": "${pick(['\\u0000', '\\ud800', '\\udfff', 'a\\ud83c'])}"}`, contentType: json };
    case 2:
      return { payload: `${'['.repeat(5_000)}${']'.repeat(5_000)}`, contentType: json };
    case 3:
      return { payload: 'x'.repeat(pick([10, 1_100_000])), contentType: pick(['text/plain', 'application/octet-stream', json]) };
    case 4:
      return { payload: JSON.stringify(nastyValue()), contentType: json };
    case 5:
      return { payload: '', contentType: json };
    default:
      return { payload: JSON.stringify(nastyObject()), contentType: pick([json, json, json, 'application/json; charset=latin1', 'application/x-www-form-urlencoded']) };
  }
}

function nastyPathValue(): string {
  return pick([
    encodeURIComponent(submission.id),
    encodeURIComponent(victim.id),
    deliveryId,
    commentId,
    '%00',
    'a%00b',
    '%ED%A0%80',
    '%C0%AF',
    '%',
    '%zz',
    '..%2F..%2Fetc%2Fpasswd',
    encodeURIComponent('x'.repeat(5_000)),
    encodeURIComponent('🎧'),
    'team',
    '-1',
    '0',
  ]);
}

function nastyQuery(): string {
  if (chance(0.5)) return '';
  const parts: string[] = [];
  for (let i = int(4); i >= 0; i--) {
    const key = chance(0.8) ? pick(['q', 'page', 'status', 'tier', 'sort', 'before', 'limit', 'token', 'id', 'filter', 'cursor', '__proto__']) : pick(['%00', 'a[b]', '']);
    const value = pick([
      ...['%00', '%ED%A0%80', '-1', '1e99', 'abc', encodeURIComponent('x'.repeat(3_000)), '', '%', 'null', '[]', '1', '20'],
      ...['1e-320', '5e-324', '1e309', '-0', 'NaN', 'Infinity', '0x10', ...FORGED_CURSORS],
    ]);
    parts.push(`${key}=${value}`);
  }
  return `?${parts.join('&')}`;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A 5xx is acceptable only where CONTRACT §2 says so: a dependency that is not configured (503). */
const isServerFault = (status: number, body: string) =>
  status >= 500 && !(status === 503 && /"code":"\w+_not_configured"/.test(body));

const ROLES = ['signed-out', 'artist', 'admin'] as const;
type Role = (typeof ROLES)[number];
const pairKey = (route: { method: string; url: string }, role: Role) => `${route.method} ${route.url} as ${role}`;

describe('the fuzzer', () => {
  it(`sends ${REQUESTS} malformed requests over every route as signed-out, artist and admin: no 5xx`, async () => {
    const routes = collector.routes;
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/payouts/account',
        'POST /api/payouts/account',
        'POST /api/admin/bonus/earnings/:submissionId/pay',
        // CONTRACT §24.
        'POST /api/payee/link',
        'GET /api/payee/:token',
        'POST /api/payee/:token/tax-form',
        'POST /api/payouts/tax-form',
        'GET /api/admin/payouts/:year.csv',
        'PUT /api/submissions/:id/owners/:ownerId/email',
        // Issue 33 part 4.
        'GET /api/admin/activity',
        'POST /api/admin/activity/seen',
        // CONTRACT §27: revise and resubmit.
        'POST /api/submissions/:id/versions',
        'GET /api/submissions/:id/versions',
        // CONTRACT §26.
        'GET /api/admin/me/availability',
        'PUT /api/admin/me/availability',
        // CONTRACT §28.
        'GET /api/admin/submissions/:id/release.zip',
        'GET /api/admin/submissions/:id/evidence.zip',
        'POST /api/admin/webhooks',
        'DELETE /api/admin/webhooks/:id',
        'POST /api/admin/webhooks/:id/ping',
        'GET /api/admin/webhooks/:id/deliveries',
      ]),
    );
    // Every route × role first, in a fixed order, so that none is left to chance; the seeded
    // random rest follows. Routes added later join the first pass by themselves.
    const pairs = routes.flatMap((route) => ROLES.map((role) => ({ route, role })));
    expect(pairs.length).toBeLessThanOrEqual(REQUESTS);
    const plan = [
      ...pairs,
      ...Array.from({ length: REQUESTS - pairs.length }, () => ({ route: pick(routes), role: pick(ROLES) })),
    ];
    const faults: string[] = [];
    const byRole = { 'signed-out': 0, artist: 0, admin: 0 };
    const covered = new Set<string>();
    let sent = 0;

    async function one({ route, role }: { route: (typeof routes)[number]; role: Role }): Promise<void> {
      byRole[role]++;
      let path = fillParams(route.url, () => '\u0001').replace(/%01/g, () => nastyPathValue());
      if (chance(0.2)) path = pick([path, ...percentEncodedVariants(path, staticSegmentIndexes(route.url))]);
      const url = path + nastyQuery();
      const headers: Record<string, string> = {};
      if (role === 'artist') headers.cookie = artistCookie;
      if (role === 'admin') headers.cookie = adminCookie;
      if (chance(0.05)) headers.cookie = pick(['sid=forged', 'sid=s%3Aabc.def', `sid=${'x'.repeat(4000)}`, 'sid=%00']);
      headers.origin = chance(0.9) ? TEST_ORIGIN : pick(['https://evil.example', 'null', TEST_ORIGIN.toUpperCase()]);
      if (chance(0.3)) headers['x-forwarded-for'] = pick(['1.2.3.4', '127.0.0.1, 10.0.0.1', 'garbage', '::1', '999.1.1.1']);
      if (chance(0.05)) headers['x-forwarded-host'] = 'evil.example';
      if (chance(0.1)) headers.authorization = pick([`Bearer ${METRICS_TOKEN}`, 'Bearer wrong', 'Bearer ', `Basic ${METRICS_TOKEN}`, `Bearer ${'x'.repeat(5000)}`]);
      let payload: string | undefined;
      if (WRITES.has(route.method) || chance(0.05)) {
        const body = nastyBody();
        payload = body.payload;
        headers['content-type'] = body.contentType;
      }
      const res = await t.app.inject({ method: route.method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
      sent++;
      covered.add(pairKey(route, role));
      if (isServerFault(res.statusCode, res.body)) {
        faults.push(`${route.method} ${url.slice(0, 200)} as ${role} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }

    for (let done = 0; done < plan.length; done += IN_FLIGHT) {
      await Promise.all(plan.slice(done, done + IN_FLIGHT).map(one));
    }
    console.info(
      `fuzz: seed ${SEED}, ${sent} requests over ${routes.length} routes (${JSON.stringify(byRole)}), ` +
        `${covered.size} of ${new Set(pairs.map(({ route, role }) => pairKey(route, role))).size} route × role pairs, ${faults.length} 5xx`,
    );
    expect(faults).toEqual([]);
    expect(errorLines).toEqual([]);
    expect(sent).toBe(REQUESTS);
    // Every registered route was tried malformed as each role, at least once.
    const missing = pairs.map(({ route, role }) => pairKey(route, role)).filter((key) => !covered.has(key));
    expect(missing).toEqual([]);
    for (const count of Object.values(byRole)) expect(count).toBeGreaterThan(REQUESTS / 5);
  }, 300_000);
});

/** What a well-behaved tus client sends with each method; `undefined` leaves the header out. */
function wellFormedTusHeader(name: string, method: string): string | undefined {
  switch (name) {
    case 'tus-resumable':
      return '1.0.0';
    case 'upload-length':
      return method === 'POST' ? pick(['100', '1000', '70000']) : undefined;
    case 'upload-offset':
      return method === 'PATCH' ? pick(['0', '0', '10', '100']) : undefined;
    case 'upload-metadata':
      return method === 'POST' && chance(0.5) ? `filename ${Buffer.from('clip.mp4').toString('base64')}` : undefined;
    case 'content-type':
      return method === 'PATCH' ? 'application/offset+octet-stream' : undefined;
    default:
      return undefined;
  }
}

/** Each tus header's malformed, unsupported or out-of-range values; `undefined` leaves it out. */
const FUZZED_TUS_HEADERS: Record<string, readonly (string | undefined)[]> = {
  'tus-resumable': ['0.2.2', '', '1.0', 'x'.repeat(300), undefined],
  'upload-length': ['1', '0', '-1', '1e3', '010', ' 10', '2147483649', '9007199254740993', 'abc', '', undefined],
  'upload-offset': ['0', '5', '100', '-1', '1.5', '010', 'abc', '99999999999999999999', '', undefined],
  'upload-metadata': [
    `filename ${Buffer.from('clip.mp4').toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`,
    'filename',
    'filename !!!',
    'a b c',
    ',',
    'k dg==,k dg==',
    '',
    `big ${Buffer.from('x'.repeat(6000)).toString('base64')}`,
    undefined,
  ],
  'upload-concat': ['partial', `final;${RESUMABLE_UPLOADS_PATH}/x ${RESUMABLE_UPLOADS_PATH}/y`, 'final;', 'final; http://127.0.0.1:1/x', 'x'],
  'upload-defer-length': ['1', '0', 'x'],
  'content-type': ['application/offset+octet-stream', 'text/plain', 'application/json', '', undefined],
};
const TUS_METHODS = ['POST', 'POST', 'HEAD', 'HEAD', 'PATCH', 'PATCH', 'PATCH', 'PATCH', 'DELETE', 'OPTIONS'] as const;

describe('the fuzzer, in the tus protocol', () => {
  // Users and sessions of its own: the fuzz above may have signed the others out or deleted them.
  let tusArtistCookie: string;
  let tusAdminCookie: string;
  /** Resumable uploads that exist: the artist's own and the victim's, so fuzzed requests reach real ones. */
  const ownUploads: string[] = [];
  const victimUploads: string[] = [];

  beforeAll(async () => {
    tusArtistCookie = await t.signIn(await createArtist(t.db));
    tusAdminCookie = await t.signIn(await createAdmin(t.db));
    const victimCookie = await t.signIn(await createArtist(t.db));
    for (const [cookie, ids] of [[tusArtistCookie, ownUploads], [victimCookie, victimUploads]] as const) {
      for (const length of [100, 1000, 70_000]) {
        const created = await t.app.inject({
          method: 'POST',
          url: RESUMABLE_UPLOADS_PATH,
          headers: { cookie, origin: TEST_ORIGIN, 'tus-resumable': '1.0.0', 'upload-length': String(length) },
        });
        expect(created.statusCode).toBe(201);
        ids.push(new URL(created.headers.location as string).pathname.split('/').pop()!);
      }
    }
  });

  /** The upload a fuzzed tus request names: one that exists (the caller's or the victim's), a malformed id, or a confused URL. */
  function tusPath(): string {
    const own = pick(ownUploads);
    switch (int(8)) {
      case 0:
      case 6:
      case 7:
        return `${RESUMABLE_UPLOADS_PATH}/${own}`;
      case 1:
        return `${RESUMABLE_UPLOADS_PATH}/${pick(victimUploads)}`;
      case 2:
        return `${RESUMABLE_UPLOADS_PATH}/${own}?x=/${pick(victimUploads)}`;
      case 3:
        return `${RESUMABLE_UPLOADS_PATH}/${nastyPathValue()}${nastyQuery()}`;
      case 4:
        return `${RESUMABLE_UPLOADS_PATH}/${own}/`;
      default:
        return `${RESUMABLE_UPLOADS_PATH}/${own}${nastyQuery()}`;
    }
  }

  it(`sends ${TUS_REQUESTS} tus requests with fuzzed protocol headers: no 5xx, every refusal {message, code}`, async () => {
    const faults: string[] = [];
    const offShape: string[] = [];
    const statuses: Record<string, number> = {};
    let sent = 0;

    async function one(): Promise<void> {
      const method = pick(TUS_METHODS);
      const role = pick(['signed-out', 'artist', 'artist', 'artist', 'artist', 'admin'] as const);
      const url = method === 'POST' ? RESUMABLE_UPLOADS_PATH + (chance(0.2) ? nastyQuery() : '') : tusPath();
      const headers: Record<string, string> = { origin: TEST_ORIGIN };
      if (role === 'artist') headers.cookie = tusArtistCookie;
      if (role === 'admin') headers.cookie = tusAdminCookie;
      // Each header well-formed most of the time, so that many requests get past the checks to tus itself.
      for (const [name, values] of Object.entries(FUZZED_TUS_HEADERS)) {
        const value = chance(0.12) ? pick(values) : wellFormedTusHeader(name, method);
        if (value !== undefined) headers[name] = value;
      }
      const length = pick([0, 0, 1, 10, 100, 1000, 70_000]);
      const payload = method === 'PATCH' || method === 'POST' ? Buffer.alloc(length, int(256)) : undefined;
      const res = await t.app.inject({ method, url, headers, ...(payload && length > 0 ? { payload } : {}) });
      sent++;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      // The artist's new uploads join the pool, so the fuzz keeps real uploads to act on after DELETEs.
      if (res.statusCode === 201 && role === 'artist') ownUploads.push(new URL(res.headers.location as string).pathname.split('/').pop()!);
      const summary = `${method} ${url.slice(0, 120)} as ${role} ${JSON.stringify(headers).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
      if (isServerFault(res.statusCode, res.body)) faults.push(summary);
      else if (res.statusCode >= 400 && method !== 'HEAD' && !isApiErrorBody(res.body, res.headers['content-type'])) offShape.push(summary);
    }

    for (let done = 0; done < TUS_REQUESTS; done += IN_FLIGHT) {
      await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, TUS_REQUESTS - done) }, one));
    }
    console.info(`fuzz (tus): seed ${SEED}, ${sent} requests, statuses ${JSON.stringify(statuses)}, ${faults.length} 5xx, ${offShape.length} refusals not {message, code}`);
    expect(faults).toEqual([]);
    expect(offShape).toEqual([]);
    expect(errorLines).toEqual([]);
    expect(sent).toBe(TUS_REQUESTS);
    // The fuzz reached tus itself, not only the checks in front of it: uploads made, bytes written, offsets told.
    for (const status of [200, 201, 204]) expect(statuses[status] ?? 0, `${status}s`).toBeGreaterThan(0);
  }, 300_000);
});

function isApiErrorBody(body: string, contentType: string | string[] | number | undefined): boolean {
  if (typeof contentType !== 'string' || !contentType.startsWith('application/json')) return false;
  try {
    const parsed = JSON.parse(body) as { message?: unknown; code?: unknown };
    return typeof parsed.message === 'string' && ERROR_CODES.includes(parsed.code as (typeof ERROR_CODES)[number]);
  } catch {
    return false;
  }
}
