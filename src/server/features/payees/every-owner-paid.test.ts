import { Writable } from 'node:stream';
import { readZip } from '../../test/kit';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import type { EarningShare, PayeePage, PayeeSummary } from '@shared/payees';
import { bonusEarnings, earningShares, payeePayoutAccounts, payoutAccounts, taxForms, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';
import { clearRights } from '../../test/rights-fixtures';
import { recordEarningShares } from '../../domain/bonus/earning-shares';
import { sentTo } from '../../test/smtp-test-server';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';

/**
 * Every owner paid, with papers (CONTRACT §24): an earning split among the song's owners, payees
 * without accounts and their links, tax forms before the first payout, paying each share once,
 * yearly statements and the accountant's CSV. Against the Stripe stub and the test SMTP server.
 */
const WEBHOOK_SECRET = 'whsec_test_every_owner_paid';
const DAY = 24 * 60 * 60 * 1000;
let clockOffsetMs = 0;
const clock = () => new Date(Date.now() + clockOffsetMs);

let stub: StripeStub;
let t: TestApp;
let admin: UserRow;
const logLines: string[] = [];
/** Every API answer of this file, searched for the full TIN at the end. */
const answers: string[] = [];

const ARTIST_TIN = '731049862';
const COOWNER_TIN = 'BR55123498X';

beforeAll(async () => {
  stub = await startStripeStub();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  t = await createTestApp(
    {
      STRIPE_SECRET_KEY: stub.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_owners',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stub.url,
      BONUS_PER_TRACK_USD: '100',
      TAX_REPORTING_THRESHOLD_USD: '60',
      LABEL_LEGAL_NAME: 'Midnight Records Ltd',
      LABEL_ADDRESS: '1 Harbour St, Brooklyn NY',
      LABEL_TAX_ID: '98-7654321',
      LOG_LEVEL: 'trace',
    },
    { smtp: true, clock, logger: { level: 'trace', stream: sink } },
  );
  admin = await createAdmin(t.db);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, as?: UserRow | string | null, body?: unknown) {
  const res = await t.call(method, url, as, body);
  answers.push(res.body);
  return res;
}

const deliver = (event: { payload: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });

async function pdfText(body: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(body)), { mergePages: true });
  return text;
}

async function payeeToken(address: string, after = 0): Promise<string> {
  const email = await t.smtp.waitFor((m) => sentTo(address)(m) && m.receivedAt >= after);
  const token = /\/payee\/([A-Za-z0-9_-]+)/.exec(email.mail.text ?? '')?.[1];
  expect(token).toBeTruthy();
  return token!;
}

/** An artist with three viral hits, then `owners` on a fourth published track that earns $100. */
async function fourthTrackEarns(owners: object[], artistName = 'Maya Lopez') {
  const artist = await createArtist(t.db, { artistName });
  for (const n of [1, 2, 3]) {
    const hit = await createSubmissionRow(t.db, artist, { status: 'approved', songTitle: `Hit ${n}` });
    await clearRights(t.db, hit.id);
    const published = await call('PUT', `/api/admin/submissions/${hit.id}/publication`, admin, {
      videoUrl: `https://youtu.be/hit${artist.id.slice(0, 4)}00${n}`,
      publishedAt: new Date(Date.now() - 20 * DAY).toISOString(),
      subscriberCount: 31_000,
    });
    expect(published.statusCode, published.body).toBe(200);
    expect((await call('PUT', `/api/admin/submissions/${hit.id}/views`, admin, { viewsAt14Days: 20_000 })).statusCode).toBe(200);
  }
  const fourth = await createSubmissionRow(t.db, artist, { status: 'approved', songTitle: 'Golden Hour', owners: owners as never });
  await clearRights(t.db, fourth.id);
  const published = await call('PUT', `/api/admin/submissions/${fourth.id}/publication`, admin, {
    videoUrl: `https://youtu.be/gold${artist.id.slice(0, 6)}`,
    publishedAt: new Date().toISOString(),
    subscriberCount: 31_000,
  });
  expect(published.statusCode, published.body).toBe(200);
  return { artist, submissionId: fourth.id };
}

const W9 = { kind: 'w9', legalName: 'Maya Lopez', country: 'US', address: '12 Elm St, Austin TX 78701', tin: ARTIST_TIN.replace(/^(\d{3})(\d{2})/, '$1-$2-'), signature: { name: 'Maya Lopez', consent: true } };
const W8BEN = { kind: 'w8ben', legalName: 'Ana Souza', country: 'BR', address: 'Rua Augusta 100, São Paulo', tin: COOWNER_TIN, signature: { name: 'Ana Souza', consent: true } };

async function connectArtist(artist: UserRow) {
  expect((await call('POST', '/api/payouts/account', artist, {})).statusCode).toBe(200);
  const [row] = await t.db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, artist.id));
  stub.setAccount(row!.stripeAccountId, { details_submitted: true, payouts_enabled: true, capabilities: { transfers: 'active' } });
  expect((await deliver(stub.accountUpdatedEvent(row!.stripeAccountId, WEBHOOK_SECRET))).statusCode).toBe(200);
  return row!.stripeAccountId;
}

async function connectPayee(token: string) {
  const res = await call('POST', `/api/payee/${token}/payout-account`, null, {});
  expect(res.statusCode, res.body).toBe(200);
  const link = stub.accountLinks.find((l) => l.url === (res.json() as { url: string }).url)!;
  expect(link.return_url).toMatch(/\/payee\/return\?payouts=return$/);
  expect(link.return_url).not.toContain(token);
  stub.setAccount(link.account, { details_submitted: true, payouts_enabled: true, capabilities: { transfers: 'active' } });
  expect((await deliver(stub.accountUpdatedEvent(link.account, WEBHOOK_SECRET))).statusCode).toBe(200);
  return link.account;
}

const sharesOf = async (artist: UserRow, submissionId: string) =>
  ((await call('GET', '/api/bonus', artist)).json() as { earnings: { submissionId: string; shares: EarningShare[] }[] }).earnings.find((e) => e.submissionId === submissionId)!.shares;

let maya: UserRow;

const OWNERS = [
  { name: 'Maya Lopez', email: null, role: 'artist', share: 33.33 },
  { name: 'Ana Souza', email: 'ana.souza@example.com', role: 'writer', share: 33.33 },
  { name: 'Theo Park', email: null, role: 'producer', share: 33.34 },
];

describe('an earning split by shares, paid to every owner', () => {
  it('splits $100 as 33.33/33.33/33.34, mails the co-owner their link, pays each ready share once and says who waits for what', async () => {
    const { artist, submissionId } = await fourthTrackEarns(OWNERS);
    maya = artist;
    let shares = await sharesOf(artist, submissionId);
    expect(shares.map((s) => [s.ownerId, s.name, s.role, s.share, s.amount, s.status])).toEqual([
      [0, 'Maya Lopez', 'artist', 33.33, '33.33', 'unpaid'],
      [1, 'Ana Souza', 'writer', 33.33, '33.33', 'unpaid'],
      [2, 'Theo Park', 'producer', 33.34, '33.34', 'unpaid'],
    ]);
    expect(shares.map((s) => s.missing)).toEqual([['tax_form', 'payout_account'], ['tax_form', 'payout_account'], ['email']]);
    expect(shares[2]!.payeeId).toBeNull();

    // Ana's link came by email; her page shows her share only.
    const ana = await payeeToken('ana.souza@example.com');
    const page = (await call('GET', `/api/payee/${ana}`, null)).json() as PayeePage;
    expect(page).toMatchObject({ name: 'Ana Souza', email: 'ana.souza@example.com', taxForm: { status: 'missing', kind: null }, payoutAccount: { status: 'none' }, owed: '33.33', paid: '0.00' });
    expect(page.shares.map((s) => [s.songTitle, s.amount, s.missing])).toEqual([['Golden Hour', '33.33', ['tax_form', 'payout_account']]]);

    // A W-9 outside the US, or a short TIN, is refused; a W-8BEN is filed and only its last four come back.
    expect((await call('POST', `/api/payee/${ana}/tax-form`, null, { ...W8BEN, kind: 'w9' })).statusCode).toBe(400);
    expect((await call('POST', `/api/payee/${ana}/tax-form`, null, { ...W8BEN, country: 'US' })).statusCode).toBe(400);
    expect((await call('POST', `/api/payee/${ana}/tax-form`, null, { ...W8BEN, signature: { name: 'Ana Souza', consent: false } })).statusCode).toBe(400);
    const filed = await call('POST', `/api/payee/${ana}/tax-form`, null, W8BEN);
    expect(filed.statusCode, filed.body).toBe(201);
    expect(filed.json()).toMatchObject({ status: 'on_file', kind: 'w8ben', tinLast4: '498X', country: 'BR' });
    const [stored] = await t.db.select().from(taxForms).where(eq(taxForms.tinLast4, '498X'));
    expect(stored!.tinSealed).toMatch(/^v1\./);
    expect(stored!.tinSealed).not.toContain(COOWNER_TIN);
    const formPdf = await call('GET', `/api/payee/${ana}/tax-form.pdf`, null);
    expect(formPdf.headers['content-type']).toBe('application/pdf');
    const formText = await pdfText(formPdf.rawPayload);
    expect(formText).toContain('W-8BEN');
    expect(formText).toContain('Ana Souza');
    expect(formText).toContain('498X');
    expect(formText).not.toContain(COOWNER_TIN);
    const anaAccount = await connectPayee(ana);

    // The artist's W-9 and payouts.
    expect((await call('POST', '/api/payouts/tax-form', artist, W9)).statusCode).toBe(201);
    expect((await call('GET', '/api/payouts/tax-form', artist)).json()).toMatchObject({ status: 'on_file', kind: 'w9', tinLast4: '9862' });
    const artistAccount = await connectArtist(artist);

    // Two pays at once: one transfer per ready share; Theo waits for an email.
    const before = stub.transfers.size;
    const pays = await Promise.all([1, 2].map(() => call('POST', `/api/admin/bonus/earnings/${submissionId}/pay`, admin, {})));
    expect(pays.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(stub.transfers.size - before).toBe(2);
    const [first, second] = pays.map((r) => r.json() as { paid: { ownerId: number; amount: string; transferId: string }[]; waiting: unknown[] });
    const paid = [...first!.paid, ...second!.paid].sort((a, b) => a.ownerId - b.ownerId);
    expect(paid.map((p) => [p.ownerId, p.amount])).toEqual([
      [0, '33.33'],
      [1, '33.33'],
    ]);
    expect(first!.waiting).toEqual([{ ownerId: 2, missing: ['email'] }]);
    expect(second!.waiting).toEqual([{ ownerId: 2, missing: ['email'] }]);
    const transfers = [...stub.transfers.values()];
    expect(transfers.find((tr) => tr.destination === artistAccount)).toMatchObject({ amount: 3333, currency: 'usd' });
    expect(transfers.find((tr) => tr.destination === anaAccount)).toMatchObject({ amount: 3333, currency: 'usd' });
    const keys = stub.requests.filter((r) => r.path === '/v1/transfers' && (r.params.metadata as { submissionId?: string })?.submissionId === submissionId).map((r) => r.idempotencyKey);
    expect(new Set(keys)).toEqual(new Set([`bonus:${submissionId}:0`, `bonus:${submissionId}:1`]));
    const [earning] = await t.db.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, submissionId));
    expect(earning!.status).toBe('owed');

    // The artist gives Theo an email: his link goes out, and his share waits for his papers.
    expect((await call('PUT', `/api/submissions/${submissionId}/owners/2/email`, artist, { email: 'Theo.Park@example.com' })).statusCode).toBe(200);
    expect((await call('PUT', `/api/submissions/${submissionId}/owners/2/email`, artist, { email: 'theo2@example.com' })).json().code).toBe('owner_has_email');
    expect((await call('PUT', `/api/submissions/${submissionId}/owners/0/email`, artist, { email: 'me@example.com' })).json().code).toBe('owner_is_artist');
    expect((await call('PUT', `/api/submissions/${submissionId}/owners/7/email`, artist, { email: 'x@example.com' })).statusCode).toBe(404);
    const stranger = await createArtist(t.db);
    expect((await call('PUT', `/api/submissions/${submissionId}/owners/1/email`, stranger, { email: 'x@example.com' })).statusCode).toBe(404);
    const theo = await payeeToken('theo.park@example.com');
    shares = await sharesOf(artist, submissionId);
    expect(shares[2]).toMatchObject({ status: 'unpaid', missing: ['tax_form', 'payout_account'] });
    expect(shares[2]!.payeeId).not.toBeNull();
    const theoPage = (await call('GET', `/api/payee/${theo}`, null)).json() as PayeePage;
    expect(theoPage.shares.map((s) => s.ownerId)).toEqual([2]);

    // The team's ledger shows every share; the payees list names each one's papers.
    const ledger = (await call('GET', '/api/admin/bonus', admin)).json() as { userId: string; earnings: { submissionId: string; shares: EarningShare[] }[] }[];
    const mine = ledger.find((l) => l.userId === artist.id)!.earnings.find((e) => e.submissionId === submissionId)!;
    expect(mine.shares.map((s) => [s.ownerId, s.status])).toEqual([
      [0, 'paid'],
      [1, 'paid'],
      [2, 'unpaid'],
    ]);
    const payees = (await call('GET', '/api/admin/payees', admin)).json() as PayeeSummary[];
    expect(payees.find((p) => p.email === 'ana.souza@example.com')).toMatchObject({ name: 'Ana Souza', taxForm: { status: 'on_file', kind: 'w8ben' }, payoutAccount: { status: 'active' }, owed: '0.00', paid: '33.33' });
    const theoRow = payees.find((p) => p.email === 'theo.park@example.com')!;
    expect(theoRow).toMatchObject({ taxForm: { status: 'missing' }, payoutAccount: { status: 'none' }, owed: '33.34', paid: '0.00' });

    // The team sends Theo a fresh link; marking paid by hand pays what is left.
    const sentAt = Date.now();
    expect((await call('POST', `/api/admin/payees/${theoRow.id}/invite`, admin, {})).statusCode).toBe(202);
    const fresh = await payeeToken('theo.park@example.com', sentAt);
    expect(fresh).not.toBe(theo);
    expect((await call('GET', `/api/payee/${theo}`, null)).statusCode).toBe(200);
    const marked = await call('PATCH', `/api/admin/bonus/earnings/${submissionId}`, admin, { status: 'paid' });
    expect(marked.statusCode).toBe(200);
    expect((marked.json() as { shares: EarningShare[] }).shares.map((s) => [s.status, s.transferId === null])).toEqual([
      ['paid', false],
      ['paid', false],
      ['paid', true],
    ]);
    expect((await call('POST', `/api/admin/bonus/earnings/${submissionId}/pay`, admin, {})).json().code).toBe('already_paid');
    expect(stub.transfers.size - before).toBe(2);

    // Statements: the artist's and Ana's year, with PDFs; the accountant's CSV.
    const year = new Date().getUTCFullYear();
    expect((await call('GET', '/api/payouts/statements', artist)).json()).toEqual([{ year, total: '33.33', currency: 'usd' }]);
    expect((await call('GET', `/api/payee/${ana}/statements`, null)).json()).toEqual([{ year, total: '33.33', currency: 'usd' }]);
    const statement = await pdfText((await call('GET', `/api/payee/${ana}/statements/${year}.pdf`, null)).rawPayload);
    for (const text of ['Bonus statement', 'Golden Hour', 'writer', '33.33%', '$33.33', 'Midnight Records Ltd', '98-7654321', 'Ana Souza', 'BR', '498X']) expect(statement).toContain(text);
    expect(statement).not.toContain(COOWNER_TIN);
    const artistStatement = await pdfText((await call('GET', `/api/payouts/statements/${year}.pdf`, artist)).rawPayload);
    expect(artistStatement).toContain('9862');
    expect(artistStatement).not.toContain(ARTIST_TIN);
    expect((await call('GET', `/api/payouts/statements/${year - 1}.pdf`, artist)).statusCode).toBe(404);

    const csv = await call('GET', `/api/admin/payouts/${year}.csv`, admin);
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe('legal_name,email,country,form_kind,tin_last4,total_paid_usd,reportable');
    expect(rows).toContain('Ana Souza,ana.souza@example.com,BR,w8ben,498X,33.33,false');
    expect(rows).toContain(`Theo Park,theo.park@example.com,,,,33.34,false`);
    // The artist's W-9 under a $60 threshold: not reportable yet.
    expect(rows).toContain(`Maya Lopez,${artist.email},US,w9,9862,33.33,false`);
  }, 180_000);

  it('reports a W-9 payee paid at least TAX_REPORTING_THRESHOLD_USD in the year', async () => {
    const { artist, submissionId } = await fourthTrackEarns([{ name: 'Jules Hart', email: null, role: 'artist', share: 100 }], 'Jules Hart');
    expect((await call('POST', '/api/payouts/tax-form', artist, { ...W9, legalName: 'Jules Hart', signature: { name: 'Jules Hart', consent: true } })).statusCode).toBe(201);
    await connectArtist(artist);
    expect((await call('POST', `/api/admin/bonus/earnings/${submissionId}/pay`, admin, {})).json()).toMatchObject({ paid: [{ ownerId: 0, amount: '100.00' }], waiting: [] });
    const csv = (await call('GET', `/api/admin/payouts/${new Date().getUTCFullYear()}.csv`, admin)).body;
    expect(csv).toContain(`Jules Hart,${artist.email},US,w9,9862,100.00,true`);
  });

  it('is one payee per address across songs, and splits a remainder to the largest remainder, ties to the artist first', async () => {
    const { artist, submissionId } = await fourthTrackEarns(
      [
        { name: 'Lena Ray', email: null, role: 'artist', share: 33.33 },
        { name: 'Kai Moss', email: 'kai.moss@example.com', role: 'featured', share: 33.33 },
        { name: 'Ivy Chen', email: 'ANA.SOUZA@example.com', role: 'writer', share: 33.34 },
      ],
      'Lena Ray',
    );
    const shares = await sharesOf(artist, submissionId);
    expect(shares.map((s) => s.amount)).toEqual(['33.33', '33.33', '33.34']);
    const payees = (await call('GET', '/api/admin/payees', admin)).json() as PayeeSummary[];
    expect(payees.filter((p) => p.email === 'ana.souza@example.com')).toHaveLength(1);
    const ana = payees.find((p) => p.email === 'ana.souza@example.com')!;
    expect(shares[2]!.payeeId).toBe(ana.id);
    // Her tax form and account, on file from the first song, make this share ready too.
    expect(shares[2]!.missing).toEqual([]);

    // Earnings that do not divide evenly: $0.10 by 33.33/33.33/33.34, $0.01 by 50/50.
    const cents = async (amount: string, owners: object[]) => {
      const sub = await createSubmissionRow(t.db, artist, { status: 'published', songTitle: `Split ${amount}`, owners: owners as never });
      await t.db.transaction(async (tx) => {
        await tx.insert(bonusEarnings).values({ submissionId: sub.id, userId: artist.id, amount });
        await recordEarningShares(tx, t.app.outbox, sub.id, new Date());
      });
      const rows = await t.db.select().from(earningShares).where(eq(earningShares.submissionId, sub.id)).orderBy(asc(earningShares.ownerId));
      return rows.map((r) => r.amountCents);
    };
    expect(await cents('0.10', [{ name: 'Lena Ray', email: null, role: 'artist', share: 33.33 }, { name: 'Kai Moss', email: 'kai.moss@example.com', role: 'featured', share: 33.33 }, { name: 'Ivy Chen', email: null, role: 'writer', share: 33.34 }])).toEqual([3, 3, 4]);
    expect(await cents('0.01', [{ name: 'Lena Ray', email: null, role: 'artist', share: 50 }, { name: 'Kai Moss', email: 'kai.moss@example.com', role: 'featured', share: 50 }])).toEqual([1, 0]);
    expect(await cents('0.02', [{ name: 'Lena Ray', email: null, role: 'artist', share: 20 }, { name: 'Kai Moss', email: 'kai.moss@example.com', role: 'featured', share: 40 }, { name: 'Ivy Chen', email: null, role: 'writer', share: 40 }])).toEqual([0, 1, 1]);
  });
});

describe('payee links', () => {
  it('read only their own payee; unknown or expired → 410; a fresh link on request is 202 whatever the address', async () => {
    const { submissionId } = await fourthTrackEarns(
      [
        { name: 'Rosa Vidal', email: null, role: 'artist', share: 50 },
        { name: 'Omar Haddad', email: 'omar.haddad@example.com', role: 'producer', share: 50 },
      ],
      'Rosa Vidal',
    );
    const omar = await payeeToken('omar.haddad@example.com');
    const page = (await call('GET', `/api/payee/${omar}`, null)).json() as PayeePage;
    expect(page.name).toBe('Omar Haddad');
    expect(page.shares.map((s) => s.submissionId)).toEqual([submissionId]);
    expect(page.shares.every((s) => s.name === 'Omar Haddad')).toBe(true);

    expect((await call('GET', `/api/payee/${encodeURIComponent('a\u0000b')}`, null)).statusCode).toBe(400);
    for (const token of ['x'.repeat(43), 'nope']) {
      expect((await call('GET', `/api/payee/${token}`, null)).statusCode).toBe(410);
      expect((await call('POST', `/api/payee/${token}/tax-form`, null, W8BEN)).statusCode).toBe(410);
      expect((await call('POST', `/api/payee/${token}/payout-account`, null, {})).statusCode).toBe(410);
    }

    const sentAt = Date.now();
    const known = await call('POST', '/api/payee/link', null, { email: 'OMAR.haddad@example.com' });
    const unknown = await call('POST', '/api/payee/link', null, { email: 'nobody@example.com' });
    expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
    expect(known.body).toBe(unknown.body);
    const fresh = await payeeToken('omar.haddad@example.com', sentAt);
    expect(fresh).not.toBe(omar);
    expect((await call('POST', '/api/payee/link', null, { email: 'not an address' })).statusCode).toBe(400);

    clockOffsetMs = 31 * DAY;
    try {
      expect((await call('GET', `/api/payee/${fresh}`, null)).statusCode).toBe(410);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('keeps the team’s routes to the team and the artist’s to artists', async () => {
    const artist = await createArtist(t.db);
    for (const url of ['/api/admin/payees', `/api/admin/payouts/2026.csv`]) {
      expect((await call('GET', url, null)).statusCode).toBe(401);
      expect((await call('GET', url, artist)).statusCode).toBe(403);
    }
    expect((await call('POST', '/api/admin/payees/nope/invite', artist, {})).statusCode).toBe(403);
    expect((await call('POST', '/api/admin/payees/3e1d7d3c-0000-4000-8000-000000000000/invite', admin, {})).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/payouts/20x6.csv', admin)).statusCode).toBe(404);
    expect((await call('GET', '/api/payouts/tax-form', null)).statusCode).toBe(401);
    expect((await call('POST', '/api/payouts/tax-form', admin, W9)).statusCode).toBe(403);
    expect((await call('GET', '/api/payouts/tax-form.pdf', artist)).statusCode).toBe(404);
    expect((await call('GET', '/api/payouts/statements', artist)).json()).toEqual([]);
  });
});

describe('the TIN', () => {
  it('is in no API answer and no log line, except its last four', async () => {
    const everything = answers.join('\n');
    const logs = logLines.join('');
    expect(everything).toContain('498X');
    for (const tin of [ARTIST_TIN, COOWNER_TIN, '731-04-9862']) {
      expect(everything).not.toContain(tin);
      expect(logs).not.toContain(tin);
    }
    // The request log never holds a tax form's body.
    expect(logs).toContain('tax form filed');
  });

  it('is in the account export only as its last four, beside the tax form and statements as PDFs', async () => {
    const res = await t.call('GET', '/api/account/export', maya);
    expect(res.statusCode).toBe(200);
    const entries = await readZip(res.rawPayload);
    const year = new Date().getUTCFullYear();
    expect([...entries.keys()]).toEqual(expect.arrayContaining(['account.json', 'tax-papers/tax-form.pdf', `tax-papers/bonus-statement-${year}.pdf`]));
    const account = JSON.parse(entries.get('account.json')!.toString('utf8')) as { taxPapers: { taxForm: { kind: string; tinLast4: string }; statements: { year: number; total: string }[] } };
    expect(account.taxPapers.taxForm).toMatchObject({ kind: 'w9', tinLast4: '9862' });
    expect(account.taxPapers.statements).toEqual([expect.objectContaining({ year, total: '33.33' })]);
    for (const [name, bytes] of entries) {
      const text = name.endsWith('.pdf') ? await pdfText(bytes) : bytes.toString('utf8');
      expect(text, name).not.toContain(ARTIST_TIN);
      expect(text, name).not.toContain('731-04-9862');
    }
    expect(await pdfText(entries.get('tax-papers/tax-form.pdf')!)).toContain('9862');
  });

  it('is unreadable in the database without the token key', async () => {
    const rows = await t.db.select().from(taxForms);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(JSON.stringify(row)).not.toMatch(new RegExp(`${ARTIST_TIN}|${COOWNER_TIN}`));
    const accounts = await t.db.select().from(payeePayoutAccounts);
    expect(accounts.length).toBeGreaterThan(0);
  });
});
