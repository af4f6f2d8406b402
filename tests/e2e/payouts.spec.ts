import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { startStripeStub, type StripeStub } from '../../src/server/test/stripe-stub';
import { E2E_ADMIN, PASSWORD, createSubmission, registerArtist, shoot, clearRights } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';

/**
 * Bonus payouts through Stripe Connect (CONTRACT §19), in the browser: an artist connects payouts
 * from /settings/billing through Stripe's onboarding and the team pays an earning from the ledger.
 * This spec runs a server of its own, pointed at the Stripe-compatible stub: the stub's onboarding
 * page completes the account, delivers a signed `account.updated` to the server's webhook and
 * redirects to the return URL, as Stripe's hosted onboarding would.
 */
const BASE = ownServerBase('payouts');
const ROOT = path.resolve(import.meta.dirname, '../..');
const SHOTS = path.join(ROOT, 'test-results/payouts-screens');
const WEBHOOK_SECRET = 'whsec_e2e_payouts';
const DAY = 24 * 60 * 60 * 1000;

let stub: StripeStub;
let server: OwnServer;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  stub = await startStripeStub();
  stub.setWebhook({ url: `${BASE}/api/webhooks/stripe`, secret: WEBHOOK_SECRET });
  mkdirSync(SHOTS, { recursive: true });
  server = await startOwnServer('payouts', {
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e_payouts',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
    BONUS_PER_TRACK_USD: '25',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await stub?.close();
});

/** Publishes a track of the artist's; with `views`, the 14-day figure is entered too. */
async function publish(team: APIRequestContext, artist: APIRequestContext, songTitle: string, views?: number) {
  const id = await createSubmission(artist, { songTitle, artistName: 'Velvet Tides' });
  expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  await clearRights(artist, team, id);
  const published = new Date(Date.now() - 20 * DAY).toISOString();
  const pub = await team.put(`/api/admin/submissions/${id}/publication`, {
    data: { videoUrl: `https://youtu.be/${songTitle.replace(/\W/g, '')}`, publishedAt: published, subscriberCount: 31_000 },
  });
  expect(pub.ok(), await pub.text()).toBe(true);
  if (views !== undefined) expect((await team.put(`/api/admin/submissions/${id}/views`, { data: { viewsAt14Days: views } })).ok()).toBe(true);
  return id;
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  expect((await page.request.post('/api/login', { data: { email, password } })).ok()).toBe(true);
}

test('an artist connects payouts with Stripe and the team pays an earning', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const artistApi = await playwrightRequest.newContext({ baseURL: BASE });
  const artist = await registerArtist(artistApi, { prefix: 'payee', profile: { artistName: 'Velvet Tides' } });
  const team = await playwrightRequest.newContext({ baseURL: BASE });
  expect((await team.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  // Three hits unlock the bonus; the fourth track published earns it.
  for (const n of [1, 2, 3]) await publish(team, artistApi, `Hit ${n}`, 15_500);
  const earned = await publish(team, artistApi, 'After the hits');

  // The artist sees the earning to be paid, and the way to Billing.
  await signIn(page, artist.email);
  await page.goto('/dashboard');
  const earnings = page.getByTestId('bonus-earnings');
  await expect(earnings).toContainText('After the hits: $25.00');
  await expect(earnings).toContainText('To be paid');
  await page.getByRole('link', { name: 'set up payouts in Billing' }).click();
  await expect(page).toHaveURL(/\/settings\/billing$/);
  const section = page.getByTestId('payouts-section');
  await expect(section.getByTestId('payout-status')).toHaveText('Not connected');
  await shoot(page, SHOTS, 'billing-not-connected');

  // Before the artist connects, the team's pay moves nothing and says what the share waits for (CONTRACT §24).
  const early = await team.post(`/api/admin/bonus/earnings/${earned}/pay`);
  expect(early.status()).toBe(200);
  expect(await early.json()).toEqual({ paid: [], waiting: [{ ownerId: 0, missing: ['tax_form', 'payout_account'] }] });
  // The W-9 that comes before the first payout (CONTRACT §24).
  const taxForm = await page.request.post('/api/payouts/tax-form', {
    data: { kind: 'w9', legalName: 'Velvet Tides LLC', country: 'US', address: '200 Main St, Nashville TN 37201', tin: '12-3456789', signature: { name: 'Vera Tides', consent: true } },
  });
  expect(taxForm.status()).toBe(201);

  // Stripe's onboarding: the stub's page completes it and sends the artist back.
  await section.getByRole('button', { name: 'Connect payouts with Stripe' }).click();
  await expect(page).toHaveURL(/\/settings\/billing\?payouts=return$/);
  await expect(section.getByTestId('payout-status')).toHaveText('Connected');
  expect(stub.accounts.size).toBe(1);
  expect([...stub.accounts.values()][0]).toMatchObject({ type: 'express', capabilities: { transfers: 'active' } });
  await shoot(page, SHOTS, 'billing-connected');

  // A link opened a second time has expired: Stripe sends the artist to the refresh URL, which makes a fresh one.
  const links = stub.accountLinks.length;
  await page.goto(stub.accountLinks[0]!.url);
  await expect(page).toHaveURL(/\/settings\/billing\?payouts=return$/);
  expect(stub.accountLinks.length).toBe(links + 1);
  expect(stub.accounts.size).toBe(1);

  // The team pays the earning from the ledger: one transfer, its id shown.
  const teamContext = await browser.newContext({ baseURL: BASE });
  const teamPage = await teamContext.newPage();
  expect((await teamPage.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  await teamPage.goto('/admin');
  const ledger = teamPage.getByTestId('bonus-ledger');
  await ledger.getByRole('button', { name: /Viral bonus ledger/ }).click();
  const row = ledger.getByTestId('ledger-earning').filter({ hasText: 'After the hits' });
  await expect(row.getByRole('button', { name: 'Mark paid' })).toBeVisible();
  // The artist's payout account is named up front (issue 36).
  await expect(ledger.getByTestId('ledger-payout-account').first()).toHaveAttribute('data-status', 'active');
  await shoot(teamPage, SHOTS, 'ledger-owed');
  await ledger.getByRole('button', { name: /Viral bonus ledger/ }).scrollIntoViewIfNeeded();
  await row.getByRole('button', { name: 'Pay with Stripe' }).click();
  // Money moves only after the product's own dialog, which names the amount (CONTRACT §21).
  const confirmPay = teamPage.getByRole('alertdialog', { name: 'Pay this bonus with Stripe?' });
  await expect(confirmPay).toContainText('$25.00');
  await confirmPay.getByRole('button', { name: 'Pay with Stripe' }).click();
  await expect(row.getByTestId('transfer-id')).toContainText(/Stripe transfer tr_\w+/);
  expect(stub.transfers.size).toBe(1);
  const [transfer] = [...stub.transfers.values()];
  expect(transfer).toMatchObject({ amount: 2500, currency: 'usd', destination: [...stub.accounts.keys()][0] });
  await expect(row.getByTestId('transfer-id')).toHaveText(`Stripe transfer ${transfer!.id}`);
  await expect(row.getByRole('button', { name: 'Pay with Stripe' })).toHaveCount(0);
  await shoot(teamPage, SHOTS, 'ledger-paid');

  // Paying again makes no second transfer: it is paid once (409 already_paid).
  expect((await team.post(`/api/admin/bonus/earnings/${earned}/pay`)).status()).toBe(409);
  expect(stub.transfers.size).toBe(1);

  // The artist sees the earning paid.
  await page.goto('/dashboard');
  await expect(earnings).toContainText(/Paid \w+/);
  await shoot(page, SHOTS, 'bonus-card-paid');

  await teamContext.close();
  await artistApi.dispose();
  await team.dispose();
});
