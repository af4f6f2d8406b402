import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_STATUSES } from '@shared/submissions';
import { submissionHistory, submissions, type UserRow } from '../../platform/db/schema';
import { TEST_ORIGIN, createAdmin, createArtist, createSubmissionRow, createTestApp, sessionCookie, type TestApp } from '../../test/helpers';
import { signedEvent } from '../../test/stripe-events';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';
import { listenOnLoopback, openSocket, type TestSocket } from '../../test/test-sockets';
import { ALLOWED_STATUS_MOVES, isAllowedMove } from './transition';
import { clearRights } from '../../test/rights-fixtures';

const WEBHOOK_SECRET = 'whsec_test_transition';

let stub: StripeStub;
let t: TestApp;
let url: string;
let admin: UserRow;
let artist: UserRow;
let other: UserRow;
const cookies = new Map<string, string>();
const sockets: TestSocket[] = [];

beforeAll(async () => {
  stub = await startStripeStub();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_transition',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
  });
  url = await listenOnLoopback(t.app);
  admin = await createAdmin(t.db);
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  other = await createArtist(t.db);
  for (const user of [admin, artist, other]) cookies.set(user.id, await sessionCookie(t.app, t.db, user));
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await t?.close();
  await stub?.close();
});

const send = (as: UserRow | null, method: 'POST' | 'PATCH' | 'PUT', path: string, payload?: object) =>
  t.app.inject({ method, url: path, headers: { origin: TEST_ORIGIN, ...(as ? { cookie: cookies.get(as.id)! } : {}) }, payload: payload as Record<string, unknown> });

const statusOf = async (id: string) => (await t.db.select({ status: submissions.status }).from(submissions).where(eq(submissions.id, id)))[0]!.status;
const statusHistory = (id: string) =>
  t.db
    .select({ from: submissionHistory.fromValue, to: submissionHistory.toValue, actorId: submissionHistory.actorId, reason: submissionHistory.reason })
    .from(submissionHistory)
    .where(and(eq(submissionHistory.submissionId, id), eq(submissionHistory.field, 'status')))
    .orderBy(asc(submissionHistory.createdAt));

async function payIntent(submissionId: string, outcome: 'payment_intent.succeeded' | 'payment_intent.payment_failed') {
  const opened = await send(artist, 'POST', '/api/create-payment-intent', { submissionId });
  expect(opened.statusCode, opened.body).toBe(200);
  const [row] = await t.db.select({ intentId: submissions.stripePaymentIntentId }).from(submissions).where(eq(submissions.id, submissionId));
  const intentId = row!.intentId!;
  const amount = stub.intents.get(intentId)!.amount;
  const intent =
    outcome === 'payment_intent.succeeded'
      ? stub.setIntent(intentId, { status: 'succeeded', amount_received: amount })
      : stub.setIntent(intentId, { status: 'requires_payment_method' });
  const event = signedEvent(WEBHOOK_SECRET, outcome, intent);
  const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });
  expect(res.statusCode, res.body).toBe(200);
}

/**
 * Every status change is the transition's: after each status-changing route, the submission's
 * status rows, read in order, lead from where it started to where it is, each with who and why.
 * A writer that changed the status without the transition would leave a gap in that chain.
 */
function expectChain(rows: Awaited<ReturnType<typeof statusHistory>>, start: string, end: string) {
  let at = start;
  for (const row of rows) {
    expect(row.from, `a move from ${at}`).toBe(at);
    expect(row.reason).not.toBeNull();
    expect(isAllowedMove(row.reason!, row.from as never, row.to as never)).toBe(true);
    at = row.to!;
  }
  expect(at).toBe(end);
}

describe('the one transition', () => {
  it('allows only statuses that exist, and a reason for every move', () => {
    for (const { from, to } of Object.values(ALLOWED_STATUS_MOVES)) {
      for (const status of [...from, ...to]) expect(SUBMISSION_STATUSES).toContain(status);
    }
  });

  it('records who and why on every status-changing route, and no route changes a status without it', async () => {
    // Sent to the label by the artist.
    const created = await send(artist, 'POST', '/api/submissions', {
      submissionMethod: 'link',
      musicUrl: 'https://soundcloud.com/nova/dark-waves',
      releaseStatus: 'unreleased',
      releaseDateOption: 'asap',
      artistName: 'Nova Black',
      songTitle: 'Dark Waves',
      hasLyrics: false,
      aiUsage: false,
      videoStyle: 'non-custom',
      pricingTier: 'free',
      termsAccepted: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const free = created.json<{ id: string }>().id;
    expect(await statusHistory(free)).toEqual([{ from: 'draft', to: 'pending', actorId: artist.id, reason: 'submitted' }]);

    // The team reviews it, singly and in bulk, then publishes it.
    expect((await send(admin, 'PATCH', `/api/admin/submissions/${free}/status`, { status: 'approved', review: 'Yes' })).statusCode).toBe(200);
    expect((await send(admin, 'POST', '/api/admin/submissions/bulk', { ids: [free], action: 'status', status: 'completed' })).statusCode).toBe(200);
    await clearRights(t.db, free);
    const published = await send(admin, 'PUT', `/api/admin/submissions/${free}/publication`, {
      videoUrl: 'https://youtu.be/abcdefghijk',
      publishedAt: new Date().toISOString(),
      subscriberCount: 1000,
    });
    expect(published.statusCode, published.body).toBeLessThan(300);
    const reviewed = await statusHistory(free);
    expect(reviewed.slice(1)).toEqual([
      { from: 'pending', to: 'approved', actorId: admin.id, reason: 'review' },
      { from: 'approved', to: 'completed', actorId: admin.id, reason: 'review' },
      { from: 'completed', to: 'published', actorId: admin.id, reason: 'published' },
    ]);
    expectChain(reviewed, 'draft', await statusOf(free));

    // A paid plan: the payment fails, the checkout opens again, Stripe confirms it.
    const paid = (await createSubmissionRow(t.db, artist, { pricingTier: 'premium', status: 'payment_pending', paymentStatus: 'pending' })).id;
    await payIntent(paid, 'payment_intent.payment_failed');
    await payIntent(paid, 'payment_intent.succeeded');
    const payments = await statusHistory(paid);
    expect(payments).toEqual([
      { from: 'payment_pending', to: 'payment_failed', actorId: null, reason: 'payment_failed' },
      { from: 'payment_failed', to: 'payment_pending', actorId: null, reason: 'checkout_reopened' },
      { from: 'payment_pending', to: 'pending', actorId: null, reason: 'payment_succeeded' },
    ]);
    expectChain(payments, 'payment_pending', await statusOf(paid));

    // The artist picks the free plan while the payment is due.
    const switched = (await createSubmissionRow(t.db, artist, { pricingTier: 'basic', status: 'payment_pending', paymentStatus: 'pending' })).id;
    expect((await send(artist, 'POST', `/api/submissions/${switched}/tier`, { pricingTier: 'free' })).statusCode).toBe(204);
    const tier = await statusHistory(switched);
    expect(tier).toEqual([{ from: 'payment_pending', to: 'pending', actorId: artist.id, reason: 'tier_changed' }]);
    expectChain(tier, 'payment_pending', await statusOf(switched));
  });

  it('refuses a move the table does not allow (409), and writes nothing', async () => {
    const draft = (await createSubmissionRow(t.db, artist, { status: 'under_review' })).id;
    // Publishing needs an approved track.
    const res = await send(admin, 'PUT', `/api/admin/submissions/${draft}/publication`, {
      videoUrl: 'https://youtu.be/abcdefghijk',
      publishedAt: new Date().toISOString(),
      subscriberCount: 10,
    });
    expect(res.statusCode).toBe(409);
    expect(await statusOf(draft)).toBe('under_review');
    expect(await statusHistory(draft)).toEqual([]);
  });
});

describe('submission_changed', () => {
  const connect = async (user: UserRow) => {
    const socket = await openSocket(url, { cookie: cookies.get(user.id)!, origin: TEST_ORIGIN });
    sockets.push(socket);
    await socket.waitFor((e) => e.type === 'ready');
    return socket;
  };

  it('reaches the owner and the team when a status changes, and no other artist', async () => {
    const id = (await createSubmissionRow(t.db, artist, { status: 'pending' })).id;
    const [ownerSocket, adminSocket, otherSocket] = await Promise.all([connect(artist), connect(admin), connect(other)]);
    expect((await send(admin, 'PATCH', `/api/admin/submissions/${id}/status`, { status: 'under_review' })).statusCode).toBe(200);
    const isThis = (e: { type: string; submissionId?: string }) => e.type === 'submission_changed' && e.submissionId === id;
    for (const socket of [ownerSocket, adminSocket]) {
      expect(await socket.waitFor(isThis)).toEqual({ type: 'submission_changed', submissionId: id, status: 'under_review' });
    }
    // A change of the other artist's own submission, made after: once it has reached them, the
    // first change would have too.
    const theirs = (await createSubmissionRow(t.db, other, { status: 'pending' })).id;
    expect((await send(admin, 'PATCH', `/api/admin/submissions/${theirs}/status`, { status: 'under_review' })).statusCode).toBe(200);
    await otherSocket.waitFor((e: { type: string; submissionId?: string }) => e.type === 'submission_changed' && e.submissionId === theirs);
    expect(otherSocket.events.filter(isThis)).toEqual([]);
  });
});

describe('status writes', () => {
  /** Every server source file but the transition and tests. */
  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'migrations' ? [] : sources(file);
      return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [file] : [];
    });
  }

  it('are made in domain/submission/transition.ts and nowhere else', () => {
    const writers: string[] = [];
    for (const file of sources(path.resolve('src/server'))) {
      if (file.endsWith(path.join('domain', 'submission', 'transition.ts'))) continue;
      const text = readFileSync(file, 'utf8');
      // A Drizzle update of submissions whose set names the status, or SQL that sets it.
      for (const match of text.matchAll(/\.update\(submissions\)\s*\.set\(\{([^}]*)\}/g)) {
        if (/\bstatus\s*:/.test(match[1]!)) writers.push(file);
      }
      if (/update\s+\$\{submissions\}\s+set[^;`]*\bstatus\s*=/i.test(text)) writers.push(file);
      // An insert sets the status only as a draft's: a submission is born a draft, then sent.
      for (const match of text.matchAll(/\.insert\(submissions\)\s*\.values\(\{([^}]*)\}/g)) {
        if (/\bstatus\s*:(?!\s*'draft')/.test(match[1]!)) writers.push(file);
      }
    }
    expect(writers).toEqual([]);
  });
});

describe('one writer per fact (CONTRACT §21)', () => {
  /** Every server source file outside tests, as [path relative to src/server, text]. */
  function serverSources(dir = path.resolve('src/server')): [string, string][] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry): [string, string][] => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'migrations' ? [] : serverSources(file);
      if (!/\.tsx?$/.test(entry.name) || entry.name.endsWith('.test.ts')) return [];
      return [[path.relative(path.resolve('src/server'), file).split(path.sep).join('/'), readFileSync(file, 'utf8')]];
    });
  }
  const outsideDomain = () => serverSources().filter(([file]) => !file.startsWith('domain/'));

  it('history is inserted by the one verb, domain/submission/history.ts', () => {
    const writers = serverSources()
      .filter(([file, text]) => file !== 'domain/submission/history.ts' && /insert\(\s*submissionHistory\s*\)|insert\s+into\s+"?submission_history/i.test(text))
      .map(([file]) => file);
    expect(writers).toEqual([]);
  });

  it('paymentStatus is assigned only under domain/', () => {
    const writers = outsideDomain()
      .filter(([, text]) => /\.set\(\{[^}]*\bpaymentStatus\s*:/.test(text) || /\.values\(\{[^}]*\bpaymentStatus\s*:/.test(text) || /payment_status\s*=/.test(text))
      .map(([file]) => file);
    expect(writers).toEqual([]);
    // And nowhere a route could reach it through a spread of submission columns: the transition has no `also` any more.
    expect(readFileSync(path.resolve('src/server/domain/submission/transition.ts'), 'utf8')).not.toMatch(/\balso\b\s*[?:]/);
  });

  it('an earning’s paid state has one writer, domain/bonus/earning-payment.ts', () => {
    const writers = serverSources()
      .filter(([file, text]) => file !== 'domain/bonus/earning-payment.ts' && /\.update\(\s*bonusEarnings\s*\)/.test(text))
      .map(([file]) => file);
    expect(writers).toEqual([]);
  });

  it('a share’s paid state has one writer too, domain/bonus/earning-payment.ts (CONTRACT §24)', () => {
    const sources = serverSources();
    const setsStatus = /\.update\(\s*earningShares\s*\)\s*\.set\(\{[^}]*\bstatus\b/;
    expect(sources.some(([file, text]) => file === 'domain/bonus/earning-payment.ts' && setsStatus.test(text))).toBe(true);
    expect(sources.filter(([file, text]) => file !== 'domain/bonus/earning-payment.ts' && setsStatus.test(text)).map(([file]) => file)).toEqual([]);
  });

  it('the refund rule lives in domain/billing/refunds.ts: no feature calls Stripe’s refunds itself', () => {
    expect(outsideDomain().filter(([, text]) => /refunds\.create\(/.test(text)).map(([file]) => file)).toEqual([]);
  });

  it('every job and schedule is declared by a *-jobs.ts, and all of them are registered from the one list in app.ts', () => {
    const sources = serverSources();
    // No job is defined anywhere else (a routes plugin, a constructor, a domain verb: decision 200).
    const defines = /\bjobs\.(every|define)\s*[<(]/;
    expect(sources.filter(([file, text]) => !file.endsWith('-jobs.ts') && defines.test(text)).map(([file]) => file)).toEqual([]);
    expect(sources.filter(([file, text]) => /routes\.ts$/.test(file) && /REFUND_JOB/.test(text)).map(([file]) => file)).toEqual([]);
    // Each *-jobs.ts exports one declare…Jobs(jobs, deps), and app.ts calls each from its one list.
    const jobModules = sources.filter(([file]) => file.endsWith('-jobs.ts'));
    expect(jobModules.length).toBeGreaterThanOrEqual(8);
    const app = sources.find(([file]) => file === 'app.ts')![1];
    const list = /const JOBS\b[^\n]*\[\n([\s\S]*?)\n\s*\];/.exec(app)?.[1] ?? '';
    for (const [file, text] of jobModules) {
      const declared = [...text.matchAll(/^export function (declare\w+Jobs)\(jobs: JobQueue, /gm)].map((m) => m[1]!);
      expect(declared, file).toHaveLength(1);
      expect(list.includes(`${declared[0]!},`), `${file}: ${declared[0]} in app.ts's JOBS`).toBe(true);
    }
    // The list is the only place a declare…Jobs is called.
    expect(sources.filter(([, text]) => /\bdeclare\w+Jobs\(jobs,/.test(text.replace(/^export function declare\w+Jobs\(jobs: JobQueue, /gm, ''))).map(([file]) => file)).toEqual([]);
  });

  it('submission_changed is announced by the domain only, in the transaction of the change', () => {
    // By call, not by the event's text: the one maker of the event is transition.ts, and outside
    // domain/ nothing calls what announces it.
    const announcers = /\bannounceSubmissionChange\s*\(|\bsubmissionChanged\s*\(|'submission_changed'/;
    expect(outsideDomain().filter(([, text]) => announcers.test(text)).map(([file]) => file)).toEqual([]);
  });
});
