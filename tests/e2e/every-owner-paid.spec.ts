import { mkdirSync } from 'node:fs';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { startStripeStub, type StripeStub } from '../../src/server/test/stripe-stub';
import { startTestSmtpServer, sentTo, type TestSmtpServer } from '../../src/server/test/smtp-test-server';
import { E2E_ADMIN, PASSWORD, clearRights, createSubmission, registerArtist } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';

/**
 * Every owner paid, with papers (CONTRACT §24), in the browser: an artist with two co-owners gets
 * their third viral hit and a fourth track earns; a co-owner opens the mailed link on a phone,
 * files a W-8BEN and connects payouts; the team pays from the ledger; the statements and the
 * accountant's CSV are right. Its own server: Stripe's stub and a mail server.
 */
const BASE = ownServerBase('every-owner-paid');
const SHOTS = process.env.E2E_SHOTS_DIR ?? 'test-results/every-owner-paid-screens';
const WEBHOOK_SECRET = 'whsec_e2e_every_owner_paid';
const DAY = 24 * 60 * 60 * 1000;

let stub: StripeStub;
let smtp: TestSmtpServer;
let server: OwnServer;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  stub = await startStripeStub();
  stub.setWebhook({ url: `${BASE}/api/webhooks/stripe`, secret: WEBHOOK_SECRET });
  smtp = await startTestSmtpServer();
  mkdirSync(SHOTS, { recursive: true });
  server = await startOwnServer('every-owner-paid', {
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    SMTP_URL: smtp.url,
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e_owners',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
    BONUS_PER_TRACK_USD: '100',
    LABEL_LEGAL_NAME: 'Midnight Lantern Records Ltd',
    LABEL_ADDRESS: '48 Harbour Street, Brooklyn NY 11201',
    LABEL_TAX_ID: '98-7654321',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await stub?.close();
});

/** Screenshots at the two sizes the issue asks for, looked at afterwards. */
async function shoot(page: Page, name: string, sizes: { width: number; height: number }[] = [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}/${name}-${size.width}.png`, fullPage: true });
  }
}

async function publish(team: APIRequestContext, artist: APIRequestContext, songTitle: string, options: { views?: number; owners?: object[] } = {}) {
  const id = await createSubmission(artist, { songTitle, artistName: 'Maya Lopez', ...(options.owners ? { owners: options.owners } : {}) });
  expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  if (!options.owners) await clearRights(artist, team, id);
  const pub = await team.put(`/api/admin/submissions/${id}/publication`, {
    data: {
      videoUrl: `https://youtu.be/${songTitle.replace(/\W/g, '')}`,
      publishedAt: new Date(Date.now() - (options.views === undefined ? 1 : 20) * DAY).toISOString(),
      subscriberCount: 31_000,
      // The co-owners sign through their own links; the journey is about what comes after.
      ...(options.owners ? { override: { reason: 'Co-owners signed on paper' } } : {}),
    },
  });
  expect(pub.ok(), await pub.text()).toBe(true);
  if (options.views !== undefined) expect((await team.put(`/api/admin/submissions/${id}/views`, { data: { viewsAt14Days: options.views } })).ok()).toBe(true);
  return id;
}

test('two co-owners are paid their shares, with their papers', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const artistApi = await playwrightRequest.newContext({ baseURL: BASE });
  const artist = await registerArtist(artistApi, { prefix: 'maya', profile: { artistName: 'Maya Lopez' } });
  const team = await playwrightRequest.newContext({ baseURL: BASE });
  expect((await team.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);

  // Three viral hits, then a fourth track with two co-owners earns $100.
  for (const title of ['Paper Lanterns', 'Slow Tide', 'Neon Harbour']) await publish(team, artistApi, title, { views: 18_400 });
  const owners = [
    { name: 'Maya Lopez', role: 'artist', share: 33.33 },
    { name: 'Ana Souza', email: 'ana.souza.e2e@example.com', role: 'writer', share: 33.33 },
    { name: 'Theo Park', email: 'theo.park.e2e@example.com', role: 'producer', share: 33.34 },
  ];
  const golden = await publish(team, artistApi, 'Golden Hour', { owners });

  // The artist's bonus card shows each share and what it waits for.
  expect((await page.request.post('/api/login', { data: { email: artist.email, password: PASSWORD } })).ok()).toBe(true);
  await page.goto('/dashboard');
  const shares = page.getByTestId('bonus-shares');
  await expect(shares).toContainText('You, 33.33%: $33.33');
  await expect(shares).toContainText('Ana Souza, 33.33%: $33.33');
  await expect(shares).toContainText('Theo Park, 33.34%: $33.34');
  await shares.scrollIntoViewIfNeeded();
  await shoot(page, 'artist-bonus-shares');

  // The artist files a W-9 on Billing and connects payouts through Stripe's onboarding.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/settings/billing');
  const papers = page.getByTestId('tax-papers-section');
  await papers.getByLabel('W-9 (United States)').check();
  await papers.getByLabel('Legal name').fill('Maya Lopez');
  await papers.getByLabel('Address').fill('12 Elm Street, Austin TX 78701');
  await papers.getByLabel('SSN or EIN (9 digits)').fill('731-04-9862');
  await papers.getByLabel('Your full name, as your signature').fill('Maya Lopez');
  await papers.getByRole('checkbox', { name: 'I sign this form electronically' }).check();
  await shoot(page, 'artist-tax-form');
  await page.setViewportSize({ width: 1280, height: 800 });
  await papers.getByRole('button', { name: 'Sign and file the form' }).click();
  await expect(papers.getByTestId('tax-form-on-file')).toContainText('number ending 9862');
  await expect(page.locator('body')).not.toContainText('731049862');
  await page.getByTestId('payouts-section').getByRole('button', { name: 'Connect payouts with Stripe' }).click();
  await expect(page).toHaveURL(/\/settings\/billing\?payouts=return$/);
  await expect(page.getByTestId('payouts-section').getByTestId('payout-status')).toHaveText('Connected');
  await shoot(page, 'artist-billing-papers');

  // Ana opens the mailed link on a phone, files a W-8BEN and connects payouts.
  const mail = await smtp.waitFor(sentTo('ana.souza.e2e@example.com'));
  const link = /https?:\/\/\S+\/payee\/[A-Za-z0-9_-]+/.exec(mail.mail.text ?? '')![0];
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const ana = await phone.newPage();
  await ana.goto(link);
  await expect(ana.getByRole('heading', { name: 'Hello Ana Souza' })).toBeVisible();
  await expect(ana.getByTestId('payee-owed')).toHaveText('$33.33');
  await expect(ana.getByTestId('payee-share')).toContainText('Golden Hour');
  await expect(ana.getByTestId('payee-share')).toContainText('Waiting: Tax form not filed · Payout account not connected');
  await ana.screenshot({ path: `${SHOTS}/payee-page-new-390.png`, fullPage: true });
  await ana.getByLabel('W-8BEN (other countries)').check();
  await ana.getByLabel('Country (two-letter code)').fill('BR');
  await ana.getByLabel('Address').fill('Rua Augusta 1500, São Paulo, SP 01304-001');
  await ana.getByLabel('Tax identification number (optional)').fill('123.456.789-09'.replace(/\D/g, ''));
  await ana.getByLabel('Your full name, as your signature').fill('Ana Souza');
  await ana.getByRole('checkbox', { name: 'I sign this form electronically' }).check();
  await ana.getByRole('button', { name: 'Sign and file the form' }).click();
  await expect(ana.getByTestId('payee-tax-form')).toContainText('W-8BEN (other countries), Ana Souza, BR, number ending 8909');
  await ana.getByRole('button', { name: 'Connect payouts with Stripe' }).click();
  await expect(ana).toHaveURL(/\/payee\/[A-Za-z0-9_-]+$/);
  await expect(ana.getByTestId('payee-payout-status')).toHaveText('Connected');
  await expect(ana.getByTestId('payee-share')).toContainText('Ready: the label pays it next');
  await ana.screenshot({ path: `${SHOTS}/payee-page-ready-390.png`, fullPage: true });

  // The team pays from the ledger: Maya's and Ana's shares go, Theo's waits for his papers.
  await page.setViewportSize({ width: 1280, height: 800 });
  const teamContext = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 } });
  const desk = await teamContext.newPage();
  expect((await desk.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  await desk.goto('/admin');
  const ledger = desk.getByTestId('bonus-ledger');
  await ledger.getByRole('button', { name: /Viral bonus ledger/ }).click();
  const row = ledger.getByTestId('ledger-earning').filter({ hasText: 'Golden Hour' });
  await expect(row.getByTestId('ledger-share')).toHaveCount(3);
  await expect(row.getByTestId('ledger-share').nth(2)).toContainText('waits: tax form not filed, payout account not connected');
  await row.getByRole('button', { name: 'Pay with Stripe' }).click();
  const confirm = desk.getByRole('alertdialog', { name: 'Pay this bonus with Stripe?' });
  await expect(confirm).toContainText('$66.66');
  await expect(confirm).toContainText('Maya Lopez, Ana Souza');
  await confirm.getByRole('button', { name: 'Pay with Stripe' }).click();
  await expect(row.locator('[data-testid="ledger-share"][data-status="paid"]')).toHaveCount(2);
  await expect(row.getByTestId('ledger-share').nth(2)).toHaveAttribute('data-status', 'unpaid');
  expect([...stub.transfers.values()].map((t) => t.amount).sort()).toEqual([3333, 3333]);
  await desk.getByTestId('payees-list').getByRole('button', { name: /Payees/ }).click();
  await expect(desk.getByTestId('payee-row').filter({ hasText: 'Ana Souza' })).toContainText('W-8BEN (other countries) on file');
  await shoot(desk, 'desk-ledger-and-payees');

  // Paying again moves nothing more; the statements and the accountant's CSV are right.
  const again = await team.post(`/api/admin/bonus/earnings/${golden}/pay`);
  expect(await again.json()).toEqual({ paid: [], waiting: [{ ownerId: 2, missing: ['tax_form', 'payout_account'] }] });
  expect(stub.transfers.size).toBe(2);
  const year = new Date().getUTCFullYear();
  expect(await (await page.request.get('/api/payouts/statements')).json()).toEqual([{ year, total: '33.33', currency: 'usd' }]);
  await ana.reload();
  await expect(ana.getByTestId('payee-paid')).toHaveText('$33.33');
  await expect(ana.getByRole('link', { name: `${year}: $33.33 (PDF)` })).toBeVisible();
  await ana.screenshot({ path: `${SHOTS}/payee-page-paid-390.png`, fullPage: true });
  const statement = await ana.request.get((await ana.getByRole('link', { name: `${year}: $33.33 (PDF)` }).getAttribute('href'))!);
  expect(statement.headers()['content-type']).toBe('application/pdf');
  const csv = await (await team.get(`/api/admin/payouts/${year}.csv`)).text();
  const lines = csv.trim().split('\r\n');
  expect(lines[0]).toBe('legal_name,email,country,form_kind,tin_last4,total_paid_usd,reportable');
  expect(lines).toContain('Ana Souza,ana.souza.e2e@example.com,BR,w8ben,8909,33.33,false');
  expect(lines).toContain(`Maya Lopez,${artist.email},US,w9,9862,33.33,false`);
  expect(csv).not.toContain('731049862');

  await phone.close();
  await teamContext.close();
  await artistApi.dispose();
  await team.dispose();
});
