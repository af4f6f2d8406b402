import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DECISION_DAYS, DECISION_STATUSES } from '@shared/decisions';
import type { PricingTier } from '@shared/submissions';
import { ConfigError, loadConfig, parseDecisionDays } from '../../config';
import { decisionSettings, useDecisionSettings } from '../../domain/submission/decision-date';
import { outboxEmails, submissionDesk, submissionHistory, submissions, users, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createTestApp, linkSubmission, secondInstance, type TestApp } from '../../test/helpers';
import { settleJobs, waitFor } from '../../test/kit';
import { signedEvent } from '../../test/stripe-events';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';
import { DECISION_DEADLINES_JOB, DECISION_TICK_JOB } from './decision-jobs';

/**
 * CONTRACT §26 on both databases, with decision days of seconds: professional 8.64 s (the one the
 * queue's own timing is watched on), premium 86.4 s, basic 172.8 s, free 432 s. Tests that need a
 * date to have passed move it into the past in the database rather than sleep.
 */
const WEBHOOK_SECRET = 'whsec_test_decisions';
const DAYS = { professional: 0.0001, premium: 0.001, basic: 0.002, free: 0.005 } as const;
/** The "due today" check needs this much of the day left; closer to midnight it starts with the next day. */
const MIDNIGHT_MARGIN_MS = 30_000;
const DAY_MS = 86_400_000;
const LABEL = 'Nachtfalter Records';

let stub: StripeStub;
let t: TestApp;
let artist: UserRow;
let other: UserRow;
let admin: UserRow;

beforeAll(async () => {
  stub = await startStripeStub();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_decisions',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
    DECISION_DAYS: Object.entries(DAYS)
      .map(([plan, days]) => `${plan}=${days}`)
      .join(','),
    LABEL_LEGAL_NAME: LABEL,
    AUTO_ASSIGN: 'on',
  });
  artist = await createArtist(t.db, { artistName: 'Mara Lindqvist' });
  other = await createArtist(t.db, { artistName: 'Jonah Reyes' });
  admin = await createAdmin(t.db, { firstName: 'Ines', lastName: 'Okafor' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const rowOf = async (id: string) => (await t.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;
const song = () => `Song ${Math.random().toString(36).slice(2, 8)}`;
const runJob = (app = t.app) => app.jobs.run(DECISION_DEADLINES_JOB);
const emailsOf = (submissionId: string, kind: string) =>
  t.db
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.kind, kind)))
    .then((rows) => rows.filter((r) => (r.templateData as { submissionId?: string }).submissionId === submissionId));

async function submitFree(owner = artist, songTitle = song()): Promise<string> {
  const res = await t.call('POST', '/api/submissions', owner, linkSubmission({ songTitle, artistName: owner.artistName }));
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

/** A paid submission through the real checkout: the intent, then Stripe's success event. */
async function submitPaid(tier: Exclude<PricingTier, 'free'>, owner = artist, songTitle = song()): Promise<{ id: string; intentId: string }> {
  const res = await t.call('POST', '/api/submissions', owner, linkSubmission({ songTitle, artistName: owner.artistName, pricingTier: tier }));
  expect(res.statusCode).toBe(201);
  const id = res.json().id as string;
  expect((await rowOf(id)).decisionDueAt).toBeNull();
  const intentRes = await t.call('POST', '/api/create-payment-intent', owner, { submissionId: id });
  expect(intentRes.statusCode).toBe(200);
  const intentId = intentRes.json().clientSecret.split('_secret_')[0] as string;
  const intent = stub.setIntent(intentId, { status: 'succeeded', amount_received: stub.intents.get(intentId)!.amount });
  const event = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...intent });
  const delivered = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });
  expect(delivered.statusCode).toBe(200);
  return { id, intentId };
}

/** Moves a submission's clock so that `share` of its time has passed (1 = due now, more = overdue). */
async function elapse(id: string, share: number, spanMs = 100_000) {
  const now = Date.now();
  const clockAt = new Date(now - share * spanMs);
  await t.db
    .update(submissions)
    .set({ decisionClockAt: clockAt, decisionDueAt: new Date(clockAt.getTime() + spanMs) })
    .where(eq(submissions.id, id));
}

const unassign = (id: string) => t.db.update(submissionDesk).set({ assigneeId: null }).where(eq(submissionDesk.submissionId, id));
const activeAdmins = async () =>
  (await t.db.select({ id: users.id }).from(users).where(and(eq(users.role, 'admin'), isNull(users.deletedAt)))).map((u) => u.id).sort();

describe('DECISION_DAYS', () => {
  it('defaults to the label’s promise, accepts fractions, and refuses a bad value with one line naming it', () => {
    expect(parseDecisionDays('')).toEqual(DEFAULT_DECISION_DAYS);
    expect(DEFAULT_DECISION_DAYS).toEqual({ professional: 3, premium: 5, basic: 7, free: 30 });
    expect(parseDecisionDays('premium=0.5, free=14')).toEqual({ ...DEFAULT_DECISION_DAYS, premium: 0.5, free: 14 });
    for (const bad of ['premium', 'gold=3', 'premium=0', 'premium=-1', 'premium=abc', 'premium=3=4']) {
      expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/x', SESSION_SECRET: 'x'.repeat(40), DECISION_DAYS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/x', SESSION_SECRET: 'x'.repeat(40), DECISION_DAYS: bad }), bad).toThrow(/DECISION_DAYS/);
    }
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/x', SESSION_SECRET: 'x'.repeat(40), LATE_DECISION: 'maybe' })).toThrow(/LATE_DECISION/);
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/x', SESSION_SECRET: 'x'.repeat(40), AUTO_ASSIGN: 'yes' })).toThrow(/AUTO_ASSIGN/);
  });
});

describe('the decision date', () => {
  it('runs from the submission on the free plan and from the payment on a paid one, by the plan’s days', async () => {
    const before = Date.now();
    const free = await rowOf(await submitFree());
    expect(free.decisionClockAt!.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(free.decisionDueAt!.getTime() - free.decisionClockAt!.getTime()).toBe(Math.round(DAYS.free * DAY_MS));
    for (const tier of ['basic', 'premium', 'professional'] as const) {
      const { id } = await submitPaid(tier);
      const row = await rowOf(id);
      expect(row.status).toBe('pending');
      expect(row.decisionDueAt!.getTime() - row.decisionClockAt!.getTime(), tier).toBe(Math.round(DAYS[tier] * DAY_MS));
      // The clock started when the payment succeeded, not when the submission was made.
      expect(row.decisionClockAt!.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime());
    }
    // The artist reads it on the submission and in its details.
    const res = await t.call('GET', `/api/submissions/${free.id}`, artist);
    expect(res.json().decisionDueAt).toBe(free.decisionDueAt!.toISOString());
    expect(res.json().queue.decisionDueAt).toBe(free.decisionDueAt!.toISOString());
    expect(res.json()).not.toHaveProperty('decisionClockAt');
    expect(res.json()).not.toHaveProperty('lateDecisionAt');
  });

  it('starts the clock, from now, of a submission that waited before the clock existed', async () => {
    const id = await submitFree(artist, 'Old Backlog');
    await t.db.update(submissions).set({ decisionClockAt: null, decisionDueAt: null }).where(eq(submissions.id, id));
    const before = Date.now();
    await Promise.all([runJob(), runJob()]);
    const row = await rowOf(id);
    expect(row.decisionClockAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.decisionDueAt!.getTime() - row.decisionClockAt!.getTime()).toBe(Math.round(DAYS.free * DAY_MS));
  });

  it('a decision is one of the shared decision statuses', () => {
    expect(DECISION_STATUSES).toEqual(expect.arrayContaining(['approved', 'rejected']));
  });
});

describe('the queue', () => {
  it('puts paid before free, then the soonest date first, and moves up as the team decides', async () => {
    // Only this test's submissions wait: the others are decided first.
    await t.db.update(submissions).set({ decidedAt: new Date() }).where(isNull(submissions.decidedAt));
    const freeA = await submitFree(artist, 'Paper Lanterns');
    const premium = (await submitPaid('premium', other, 'Saltwater')).id;
    const freeB = await submitFree(other, 'Northbound');
    const basic = (await submitPaid('basic', artist, 'Glass Harbour')).id;
    const place = async (id: string, as: UserRow) => (await t.call('GET', `/api/submissions/${id}`, as)).json().queue.position;
    expect([await place(premium, other), await place(basic, artist), await place(freeA, artist), await place(freeB, other)]).toEqual([1, 2, 3, 4]);

    // The desk's decision order is the same.
    const desk = await t.call('GET', '/api/admin/submissions?sort=decision&pageSize=10', admin);
    expect(desk.statusCode).toBe(200);
    expect(desk.json().submissions.slice(0, 4).map((s: { id: string }) => s.id)).toEqual([premium, basic, freeA, freeB]);

    // The team decides the first: everyone behind it moves up, and it leaves the queue.
    expect((await t.call('PATCH', `/api/admin/submissions/${premium}/status`, admin, { status: 'approved' })).statusCode).toBe(200);
    expect(await place(premium, other)).toBeNull();
    expect([await place(basic, artist), await place(freeA, artist), await place(freeB, other)]).toEqual([1, 2, 3]);
    expect((await t.call('GET', `/api/submissions/${premium}`, other)).json().decisionDueAt).toBeNull();

    // Someone else's submission is not the artist's to see, place or not.
    expect((await t.call('GET', `/api/submissions/${basic}`, other)).statusCode).toBe(404);
  });

  it('filters the desk by overdue and due today, and refuses other values', async () => {
    // "Today" ends at midnight UTC: a run in the last seconds of a day starts with the next one,
    // so that one submission can still be due later today (it once ran at 23:58, and a decision
    // period of minutes fell due after midnight).
    const endOfToday = () => {
      const end = new Date();
      end.setUTCHours(24, 0, 0, 0);
      return end.getTime();
    };
    if (endOfToday() - Date.now() < MIDNIGHT_MARGIN_MS) await new Promise((resolve) => setTimeout(resolve, endOfToday() - Date.now() + 100));
    const late = await submitFree(artist, 'Overdue Anthem');
    const fresh = await submitFree(artist, 'Fresh Anthem');
    const tomorrow = await submitFree(artist, 'Tomorrow Anthem');
    await elapse(late, 1.5);
    const dueAt = (id: string, at: number) => t.db.update(submissions).set({ decisionDueAt: new Date(at) }).where(eq(submissions.id, id));
    await dueAt(fresh, endOfToday() - 1_000);
    await dueAt(tomorrow, endOfToday() + 60 * 60_000);
    const overdue = await t.call('GET', '/api/admin/submissions?decision=overdue&q=Anthem', admin);
    expect(overdue.json().submissions.map((s: { id: string }) => s.id)).toEqual([late]);
    const today = await t.call('GET', '/api/admin/submissions?decision=today&q=Anthem&sort=decision', admin);
    expect(today.json().submissions.map((s: { id: string }) => s.id)).toEqual([late, fresh]);
    expect((await t.call('GET', '/api/admin/submissions?decision=soon', admin)).statusCode).toBe(400);
  });
});

describe('reminders', () => {
  it('go to everyone on the team when unassigned at 75%, and to the assignee alone when overdue, once each, also from two instances', async () => {
    const id = await submitFree(artist, 'Low Tide');
    await unassign(id);
    await elapse(id, 0.5);
    await runJob();
    expect(await emailsOf(id, 'decision_reminder')).toHaveLength(0);

    await elapse(id, 0.8);
    const second = await secondInstance(t);
    try {
      await Promise.all([runJob(), runJob(second.app), runJob()]);
      await runJob(second.app);
    } finally {
      await second.close();
    }
    const reminders = await emailsOf(id, 'decision_reminder');
    expect(reminders.map((r) => r.userId).sort()).toEqual(await activeAdmins());

    // Assigned now; the date passes: the assignee alone hears it is overdue, once.
    expect((await t.call('PUT', `/api/admin/submissions/${id}/assignee`, admin, { assigneeId: admin.id })).statusCode).toBe(200);
    // LATE_DECISION=off: only the reminders, nothing is closed. It is off before the date passes
    // and until the status is read, and a run already under way when it went off (the queue's own
    // minute or tick, which read the old setting) has finished before the date moves: once, on a
    // slow CI machine, such a run closed the submission in between.
    const settings = decisionSettings();
    useDecisionSettings({ ...settings, late: false });
    try {
      await settleJobs(t, DECISION_TICK_JOB);
      await settleJobs(t, DECISION_DEADLINES_JOB);
      await t.db.update(submissions).set({ decisionDueAt: new Date(Date.now() - 1000) }).where(eq(submissions.id, id));
      await Promise.all([runJob(), runJob()]);
      const overdue = await emailsOf(id, 'decision_overdue');
      expect(overdue.map((r) => r.userId)).toEqual([admin.id]);
      expect(overdue[0]!.subject).toContain('Low Tide');
      expect((await emailsOf(id, 'decision_reminder')).length).toBe(reminders.length);
      expect((await rowOf(id)).status).toBe('pending');
    } finally {
      useDecisionSettings(settings);
    }
  });
});

describe('no answer is not an answer', () => {
  it('refunds a late paid submission in full once, also with two instances at once, and keeps it in review', async () => {
    const { id, intentId } = await submitPaid('premium', other, 'Cinder Road');
    await elapse(id, 1.2);
    const second = await secondInstance(t);
    try {
      await Promise.all([runJob(), runJob(second.app)]);
      await runJob(second.app);
    } finally {
      await second.close();
    }
    const refunds = [...stub.refunds.values()].filter((r) => r.payment_intent === intentId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.metadata.reason).toBe('late_decision');
    const row = await rowOf(id);
    expect(row.status).toBe('pending');
    expect(row.refundReason).toBe('late_decision');
    expect(row.lateDecisionAt).not.toBeNull();
    const told = await emailsOf(id, 'refund_issued');
    expect(told.map((e) => e.userId)).toEqual([other.id]);
    expect((told[0]!.templateData as { reason: string }).reason).toBe('late_decision');
    // Still waiting: the artist still has a place in the queue and gets an answer.
    expect((await t.call('GET', `/api/submissions/${id}`, other)).json().queue.position).toBeGreaterThanOrEqual(1);
  });

  it('closes a late free submission as rejected with the label’s kind message, by the system, in the history', async () => {
    const id = await submitFree(artist, 'Quiet Hours');
    await elapse(id, 1.1);
    await Promise.all([runJob(), runJob()]);
    const row = await rowOf(id);
    expect(row.status).toBe('rejected');
    expect(row.adminReview).toContain('not selected this time');
    expect(row.adminReview).toContain(LABEL);
    const history = await t.db.select().from(submissionHistory).where(and(eq(submissionHistory.submissionId, id), eq(submissionHistory.field, 'status')));
    const closing = history.find((h) => h.toValue === 'rejected')!;
    expect(closing).toMatchObject({ actorId: null, reason: 'late_decision', fromValue: 'pending' });
    const told = await emailsOf(id, 'status_changed');
    expect(told).toHaveLength(1);
    expect((told[0]!.templateData as { review: string }).review).toBe(row.adminReview);
    expect((await t.call('GET', `/api/submissions/${id}`, artist)).json().queue.position).toBeNull();
  });

  it('a decision in time stops the reminders, the refund and the close', async () => {
    const { id, intentId } = await submitPaid('basic', artist, 'Early Answer');
    const free = await submitFree(artist, 'Early Answer Free');
    for (const sub of [id, free]) {
      await elapse(sub, 0.3);
      expect((await t.call('PATCH', `/api/admin/submissions/${sub}/status`, admin, { status: 'under_review' })).statusCode).toBe(200);
    }
    // under_review is not a decision: the clock runs on.
    expect((await rowOf(id)).decidedAt).toBeNull();
    expect((await t.call('PATCH', `/api/admin/submissions/${id}/status`, admin, { status: 'approved' })).statusCode).toBe(200);
    expect((await t.call('PATCH', `/api/admin/submissions/${free}/status`, admin, { status: 'approved' })).statusCode).toBe(200);
    await elapse(id, 2);
    await elapse(free, 2);
    await runJob();
    expect([...stub.refunds.values()].filter((r) => r.payment_intent === intentId)).toHaveLength(0);
    for (const sub of [id, free]) {
      expect(await emailsOf(sub, 'decision_reminder')).toHaveLength(0);
      expect(await emailsOf(sub, 'decision_overdue')).toHaveLength(0);
      expect((await rowOf(sub)).status).toBe('approved');
    }
  });

  it('keeps each date within seconds through the queue itself, with nothing run by hand but the first pass', async () => {
    // Professional: 8.64 s. The run after the payment queues a tick at the 75% mark; the tick the next.
    const { id, intentId } = await submitPaid('professional', other, 'Midnight Ferry');
    await runJob();
    const row = await rowOf(id);
    const reminded = await waitFor(async () => {
      const rows = await emailsOf(id, 'decision_reminder');
      return rows.length > 0 && rows;
    }, { timeoutMs: 40_000, intervalMs: 250, what: 'the reminder' });
    expect(reminded.length).toBeGreaterThan(0);
    const refunded = await waitFor(async () => {
      const r = await rowOf(id);
      return r.lateDecisionAt !== null && r;
    }, { timeoutMs: 40_000, intervalMs: 250, what: 'the late-decision refund' });
    expect(refunded.lateDecisionAt).not.toBeNull();
    // Within a minute of its time (in practice, within seconds).
    expect(refunded.lateDecisionAt!.getTime() - row.decisionDueAt!.getTime()).toBeLessThan(60_000);
    expect([...stub.refunds.values()].filter((r) => r.payment_intent === intentId)).toHaveLength(1);
  }, 90_000);
});

describe('after a restart', () => {
  it('does what fell due while no instance ran within seconds of the new one starting', async () => {
    const id = await submitFree(other, 'Winter Static');
    // Due a while ago, and nothing queued for it: as after a server that was down.
    await elapse(id, 3);
    const restarted = await secondInstance(t);
    try {
      const row = await waitFor(async () => {
        const r = await rowOf(id);
        return r.status === 'rejected' && r;
      }, { timeoutMs: 45_000, intervalMs: 250, what: 'the overdue rejection' });
      expect(row.status).toBe('rejected');
      expect(await emailsOf(id, 'decision_overdue')).not.toHaveLength(0);
    } finally {
      await restarted.close();
    }
  }, 60_000);
});

describe('fair assignment', () => {
  it('gives a new submission to the admin with the fewest open ones, ties to the one assigned least recently, skipping those away', async () => {
    // Everyone already on the team steps away: only the three below take work.
    const existing = await activeAdmins();
    await t.db.update(users).set({ awayAt: new Date() }).where(inArray(users.id, existing));
    const ana = await createAdmin(t.db, { firstName: 'Ana', lastName: 'Silva' });
    const ben = await createAdmin(t.db, { firstName: 'Ben', lastName: 'Adeyemi' });
    const cleo = await createAdmin(t.db, { firstName: 'Cleo', lastName: 'Marsh' });
    const assigneeOf = async (id: string) => (await t.db.select().from(submissionDesk).where(eq(submissionDesk.submissionId, id)))[0]?.assigneeId ?? null;

    // Nobody has any: each of the three in turn (never assigned first, then the least recent).
    const first = [await submitFree(), await submitFree(), await submitFree()];
    const firstAssignees = await Promise.all(first.map(assigneeOf));
    expect(new Set(firstAssignees)).toEqual(new Set([ana.id, ben.id, cleo.id]));

    // Ben finishes his (rejects it): he now has the fewest open ones and gets the next.
    const bens = first[firstAssignees.indexOf(ben.id)]!;
    expect((await t.call('PATCH', `/api/admin/submissions/${bens}/status`, ben, { status: 'rejected' })).statusCode).toBe(200);
    expect(await assigneeOf(await submitFree())).toBe(ben.id);

    // All at one again; the tie goes to the one assigned least recently: the first of the first round.
    expect(await assigneeOf(await submitFree())).toBe(firstAssignees.find((a) => a !== ben.id));

    // Cleo marks herself away: she is skipped; back, she takes work again.
    expect((await t.call('PUT', '/api/admin/me/availability', cleo, { away: true })).json()).toEqual({ away: true });
    expect((await t.call('GET', '/api/admin/me/availability', cleo)).json()).toEqual({ away: true });
    const whileAway = await Promise.all([await submitFree(), await submitFree(), await submitFree()].map(assigneeOf));
    expect(whileAway).not.toContain(cleo.id);
    expect((await t.call('PUT', '/api/admin/me/availability', cleo, { away: false })).json()).toEqual({ away: false });
    expect(await assigneeOf(await submitFree())).toBe(cleo.id);

    // The history says the system assigned it.
    const [assigned] = await t.db.select().from(submissionHistory).where(and(eq(submissionHistory.submissionId, first[0]!), eq(submissionHistory.field, 'assignee')));
    expect(assigned).toMatchObject({ actorId: null });
    await t.db.update(users).set({ awayAt: null }).where(inArray(users.id, existing));
  });

  it('guards the availability route and checks its input', async () => {
    expect((await t.call('PUT', '/api/admin/me/availability', null, { away: true })).statusCode).toBe(401);
    expect((await t.call('PUT', '/api/admin/me/availability', artist, { away: true })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/admin/me/availability', artist)).statusCode).toBe(403);
    const bad = await t.call('PUT', '/api/admin/me/availability', admin, { away: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBeTruthy();
  });
});
