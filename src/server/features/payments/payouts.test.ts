import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bonusEarnings, payoutAccounts, type UserRow } from '../../platform/db/schema';
import { snapshotDatabase } from '../../attack/attack-support';
import { TEST_ORIGIN, createAdmin, createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';

/**
 * Bonus payouts through Stripe Connect (CONTRACT §19) against the Stripe-compatible stub: the
 * artist's Express account and onboarding link, `account.updated`, and the one transfer per earning.
 */
const WEBHOOK_SECRET = 'whsec_test_payouts_secret';

let stub: StripeStub;
let t: TestApp;
let admin: UserRow;
let adminCookie: string;

beforeAll(async () => {
  stub = await startStripeStub();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_payouts',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
  });
  admin = await createAdmin(t.db);
  adminCookie = await t.signIn(admin);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const deliver = (event: { payload: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });

/** An artist with a signed-in cookie. */
async function newArtist() {
  const user = await createArtist(t.db);
  return { user, cookie: await t.signIn(user) };
}

/** An owed earning of `amount` dollars for the artist, as the viral check records it. */
async function owedEarning(user: UserRow, amount = '25.00') {
  const submission = await createSubmissionRow(t.db, user, { pricingTier: 'premium', status: 'published' });
  await t.db.insert(bonusEarnings).values({ submissionId: submission.id, userId: user.id, amount });
  return submission.id;
}

/** Connects the artist's payouts as the browser would (a W-9 on file first, CONTRACT §24), and has Stripe report the account ready. */
async function connect(user: UserRow, cookie: string): Promise<string> {
  await fileTaxForm(cookie);
  const res = await t.call('POST', '/api/payouts/account', cookie, {});
  expect(res.statusCode).toBe(200);
  const [row] = await t.db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, user.id));
  stub.setAccount(row!.stripeAccountId, { details_submitted: true, payouts_enabled: true, capabilities: { transfers: 'active' } });
  expect((await deliver(stub.accountUpdatedEvent(row!.stripeAccountId, WEBHOOK_SECRET))).statusCode).toBe(200);
  return row!.stripeAccountId;
}

/** The artist's W-9, which CONTRACT §24 asks for before the first payout. */
async function fileTaxForm(cookie: string) {
  const form = { kind: 'w9', legalName: 'Maya Lopez', country: 'US', address: '12 Elm St, Austin TX 78701', tin: '123456789', signature: { name: 'Maya Lopez', consent: true } };
  expect((await t.call('POST', '/api/payouts/tax-form', cookie, form)).statusCode).toBe(201);
}

const transfersTo = (accountId: string) => [...stub.transfers.values()].filter((tr) => tr.destination === accountId);

describe('the artist’s payout account', () => {
  it('is none, then an Express account with the transfers capability and an onboarding link back to /settings/billing', async () => {
    const { user, cookie } = await newArtist();
    expect((await t.call('GET', '/api/payouts/account', cookie)).json()).toEqual({ status: 'none' });

    const res = await t.call('POST', '/api/payouts/account', cookie, {});
    expect(res.statusCode).toBe(200);
    const { url } = res.json() as { url: string };
    const link = stub.accountLinks.find((l) => l.url === url)!;
    expect(link).toMatchObject({
      type: 'account_onboarding',
      return_url: `${TEST_ORIGIN}/settings/billing?payouts=return`,
      refresh_url: `${TEST_ORIGIN}/settings/billing?payouts=refresh`,
    });
    const account = stub.accounts.get(link.account)!;
    expect(account).toMatchObject({ type: 'express', metadata: { userId: user.id }, capabilities: { transfers: 'inactive' } });
    const created = stub.requests.find((r) => r.path === '/v1/accounts' && r.params.metadata && (r.params.metadata as { userId: string }).userId === user.id);
    expect(created?.params.capabilities).toEqual({ transfers: { requested: 'true' } });
    expect((await t.call('GET', '/api/payouts/account', cookie)).json()).toEqual({ status: 'pending' });

    // The refresh URL leads back here, and the next call makes a fresh link for the same account.
    const again = (await t.call('POST', '/api/payouts/account', cookie, {})).json() as { url: string };
    expect(again.url).not.toBe(url);
    expect(stub.accountLinks.find((l) => l.url === again.url)!.account).toBe(account.id);
    expect([...stub.accounts.values()].filter((a) => a.metadata.userId === user.id)).toHaveLength(1);
  });

  it('asked for twice at the same moment, is created once', async () => {
    const { user, cookie } = await newArtist();
    const answers = await Promise.all(Array.from({ length: 4 }, () => t.call('POST', '/api/payouts/account', cookie, {})));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const accounts = [...stub.accounts.values()].filter((a) => a.metadata.userId === user.id);
    expect(accounts).toHaveLength(1);
    const rows = await t.db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, user.id));
    expect(rows.map((r) => r.stripeAccountId)).toEqual([accounts[0]!.id]);
  });

  it('follows account.updated: active once transfers are active and payouts enabled, pending again when Stripe disables them', async () => {
    const { user, cookie } = await newArtist();
    await t.call('POST', '/api/payouts/account', cookie, {});
    const [row] = await t.db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, user.id));
    const id = row!.stripeAccountId;
    const status = async () => ((await t.call('GET', '/api/payouts/account', cookie)).json() as { status: string }).status;

    // Details sent, but Stripe has not enabled payouts yet.
    stub.setAccount(id, { details_submitted: true, capabilities: { transfers: 'active' } });
    expect((await deliver(stub.accountUpdatedEvent(id, WEBHOOK_SECRET))).statusCode).toBe(200);
    expect(await status()).toBe('pending');

    stub.setAccount(id, { payouts_enabled: true });
    const ready = stub.accountUpdatedEvent(id, WEBHOOK_SECRET);
    expect((await deliver(ready)).statusCode).toBe(200);
    expect(await status()).toBe('active');

    // An unsigned or wrongly signed event changes nothing.
    stub.setAccount(id, { payouts_enabled: false });
    const forged = stub.accountUpdatedEvent(id, 'whsec_wrong');
    expect((await deliver(forged)).statusCode).toBe(400);
    expect(await status()).toBe('active');
    expect((await deliver(stub.accountUpdatedEvent(id, WEBHOOK_SECRET))).statusCode).toBe(200);
    expect(await status()).toBe('pending');

    // The old "ready" event delivered late does not turn it back: the state is asked of Stripe.
    expect((await deliver(ready)).statusCode).toBe(200);
    expect(await status()).toBe('pending');
  });

  it('ignores account.updated for an account of no artist', async () => {
    const created = await fetch(`${stub.url}/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stub.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'type=express',
    }).then((r) => r.json() as Promise<{ id: string }>);
    expect((await deliver(stub.accountUpdatedEvent(created.id, WEBHOOK_SECRET))).statusCode).toBe(200);
  });

  it('is for artists: 401 signed out, 403 for the team', async () => {
    expect((await t.call('GET', '/api/payouts/account')).statusCode).toBe(401);
    expect((await t.call('POST', '/api/payouts/account', undefined, {})).statusCode).toBe(401);
    expect((await t.call('GET', '/api/payouts/account', adminCookie)).statusCode).toBe(403);
    expect((await t.call('POST', '/api/payouts/account', adminCookie, {})).statusCode).toBe(403);
  });
});

describe('paying an earning with Stripe', () => {
  it('makes one transfer of the artist’s share with the key bonus:{submissionId}:0; the earning is paid with its transferId', async () => {
    const { user, cookie } = await newArtist();
    const accountId = await connect(user, cookie);
    const submissionId = await owedEarning(user, '25.00');

    const res = await t.call('POST', `/api/admin/bonus/earnings/${submissionId}/pay`, adminCookie, {});
    expect(res.statusCode).toBe(200);
    const [transfer] = transfersTo(accountId);
    expect(transfer).toMatchObject({ amount: 2500, currency: 'usd', destination: accountId, metadata: { submissionId, ownerId: '0' } });
    expect(res.json()).toEqual({ paid: [{ ownerId: 0, amount: '25.00', transferId: transfer!.id }], waiting: [] });
    const [earning] = await t.db.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, submissionId));
    expect(earning).toMatchObject({ status: 'paid', transferId: transfer!.id });
    expect(earning!.paidAt).toBeInstanceOf(Date);
    const request = stub.requests.find((r) => r.path === '/v1/transfers' && (r.params.metadata as { submissionId?: string })?.submissionId === submissionId);
    expect(request?.idempotencyKey).toBe(`bonus:${submissionId}:0`);

    // The artist and the team's ledger see it paid, with the transfer.
    const bonus = (await t.call('GET', '/api/bonus', cookie)).json() as { earnings: { submissionId: string; status: string; transferId: string }[] };
    expect(bonus.earnings).toEqual([expect.objectContaining({ submissionId, status: 'paid', transferId: transfer!.id })]);

    // Paying again is refused (CONTRACT §21: an earning is paid once) and makes no second transfer; it cannot be set back to owed.
    const again = await t.call('POST', `/api/admin/bonus/earnings/${submissionId}/pay`, adminCookie, {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'already_paid', message: 'This earning is already paid by a Stripe transfer.' });
    expect(transfersTo(accountId)).toHaveLength(1);
    const back = await t.call('PATCH', `/api/admin/bonus/earnings/${submissionId}`, adminCookie, { status: 'owed' });
    expect(back.statusCode).toBe(409);
    expect(back.json().code).toBe('earning_paid_by_transfer');
  });

  it('asked five times at the same moment, makes the transfer once: one 200, the others 409 already_paid', async () => {
    const { user, cookie } = await newArtist();
    const accountId = await connect(user, cookie);
    const submissionId = await owedEarning(user, '40.00');
    const before = stub.transfers.size;

    const answers = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', `/api/admin/bonus/earnings/${submissionId}/pay`, adminCookie, {})));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(answers.filter((r) => r.statusCode === 409).map((r) => r.json().code)).toEqual(['already_paid', 'already_paid', 'already_paid', 'already_paid']);
    expect(stub.transfers.size - before).toBe(1);
    const [transfer] = transfersTo(accountId);
    expect(answers.find((r) => r.statusCode === 200)!.json()).toMatchObject({ paid: [{ ownerId: 0, transferId: transfer!.id }] });
    const [row] = await t.db.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, submissionId));
    expect(row).toMatchObject({ status: 'paid', transferId: transfer!.id, paidBy: admin.id });
  });

  it('10 "pay" and 10 "mark paid" at once for one earning: exactly one succeeds, the rest are 409 already_paid (CONTRACT §21)', async () => {
    const { user, cookie } = await newArtist();
    const accountId = await connect(user, cookie);
    const submissionId = await owedEarning(user, '30.00');
    const pay = () => t.call('POST', `/api/admin/bonus/earnings/${submissionId}/pay`, adminCookie, {});
    const markPaid = () => t.call('PATCH', `/api/admin/bonus/earnings/${submissionId}`, adminCookie, { status: 'paid' });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? pay() : markPaid())));
    const won = answers.filter((r) => r.statusCode === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((r) => r.statusCode !== 200).map((r) => r.json().code)).toEqual(Array.from({ length: 19 }, () => 'already_paid'));
    const [row] = await t.db.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, submissionId));
    // The money moved once: a transfer only when "pay" won, and then the earning names it.
    const transfers = transfersTo(accountId);
    expect(transfers.length).toBe(row!.transferId ? 1 : 0);
    expect(row).toMatchObject({ status: 'paid', transferId: transfers[0]?.id ?? null });
    if (row!.transferId) expect(won[0]!.json()).toMatchObject({ paid: [{ ownerId: 0, transferId: row!.transferId }] });
    else expect(won[0]!.json()).toMatchObject({ status: 'paid', transferId: null });
  });

  it('without a tax form or an active account says what the share waits for and moves no money (CONTRACT §24)', async () => {
    const { user, cookie } = await newArtist();
    const submissionId = await owedEarning(user);
    const before = stub.transfers.size;
    const none = await t.call('POST', `/api/admin/bonus/earnings/${submissionId}/pay`, adminCookie, {});
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ paid: [], waiting: [{ ownerId: 0, missing: ['tax_form', 'payout_account'] }] });

    await fileTaxForm(cookie);
    await t.call('POST', '/api/payouts/account', cookie, {}); // onboarding not finished: pending
    const pending = await t.call('POST', `/api/admin/bonus/earnings/${submissionId}/pay`, adminCookie, {});
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual({ paid: [], waiting: [{ ownerId: 0, missing: ['payout_account'] }] });
    expect(stub.transfers.size).toBe(before);
    const [row] = await t.db.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, submissionId));
    expect(row).toMatchObject({ status: 'owed', transferId: null });
  });

  it('refuses an earning marked paid by hand, and a $0 earning; manual marking still works', async () => {
    const { user, cookie } = await newArtist();
    await connect(user, cookie);
    const byHand = await owedEarning(user);
    expect((await t.call('PATCH', `/api/admin/bonus/earnings/${byHand}`, adminCookie, { status: 'paid' })).statusCode).toBe(200);
    const refused = await t.call('POST', `/api/admin/bonus/earnings/${byHand}/pay`, adminCookie, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'already_paid', message: 'This earning is already marked paid, so no transfer is made.' });
    expect((await t.call('PATCH', `/api/admin/bonus/earnings/${byHand}`, adminCookie, { status: 'owed' })).statusCode).toBe(200);

    const zero = await owedEarning(user, '0.00');
    const nothing = await t.call('POST', `/api/admin/bonus/earnings/${zero}/pay`, adminCookie, {});
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().code).toBe('nothing_to_transfer');
  });

  it('is the team’s: 401 signed out, 403 for artists (the owner too), 404 for no earning; nothing changes', async () => {
    const { user, cookie } = await newArtist();
    await connect(user, cookie);
    const other = await newArtist();
    const submissionId = await owedEarning(user);
    const before = await snapshotDatabase(t.db);
    const transfers = stub.transfers.size;
    const url = `/api/admin/bonus/earnings/${submissionId}/pay`;
    expect((await t.call('POST', url, undefined, {})).statusCode).toBe(401);
    expect((await t.call('POST', url, cookie, {})).statusCode).toBe(403);
    expect((await t.call('POST', url, other.cookie, {})).statusCode).toBe(403);
    expect((await t.call('POST', url.replace('/api/admin/', '/api/%61dmin/'), cookie, {})).statusCode).toBe(403);
    expect(await snapshotDatabase(t.db)).toEqual(before);
    expect(stub.transfers.size).toBe(transfers);
    // Another artist's payout state is their own: the route takes no id, only the session.
    expect((await t.call('GET', '/api/payouts/account', cookie)).json()).toEqual({ status: 'active' });
    expect((await t.call('GET', '/api/payouts/account', other.cookie)).json()).toEqual({ status: 'none' });
    for (const bad of ['nope', encodeURIComponent('a\u0000b'), 'x'.repeat(5000)]) {
      expect([400, 404]).toContain((await t.call('POST', `/api/admin/bonus/earnings/${bad}/pay`, adminCookie, {})).statusCode);
    }
  });
});

describe('the Stripe stub’s idempotency keys', () => {
  it('replays the same key with the same parameters and refuses it with others, as Stripe does', async () => {
    const post = (path: string, body: string, key: string) =>
      fetch(`${stub.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stub.secretKey}`, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key },
        body,
      });
    const account = (await (await post('/v1/accounts', 'type=express&capabilities[transfers][requested]=true', 'k-acct')).json()) as { id: string };
    stub.setAccount(account.id, { capabilities: { transfers: 'active' }, payouts_enabled: true });
    const first = await post('/v1/transfers', `amount=100&currency=usd&destination=${account.id}`, 'k-1');
    const same = await post('/v1/transfers', `currency=usd&amount=100&destination=${account.id}`, 'k-1');
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expect(((await same.json()) as { id: string }).id).toBe(((await first.json()) as { id: string }).id);
    const other = await post('/v1/transfers', `amount=200&currency=usd&destination=${account.id}`, 'k-1');
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { type: string } }).error.type).toBe('idempotency_error');
  });
});
