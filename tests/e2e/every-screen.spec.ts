import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { startTestSmtpServer, type TestSmtpServer } from '../../src/server/test/smtp-test-server';
import { E2E_ADMIN, FAKE_STRIPE_JS, PASSWORD, clearRights, createSubmission, registerArtist, uniqueEmail } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';

/**
 * Issue 36, "every screen a person meets, finished": the behaviour it changed, in the browser, on
 * a server of its own with a mail server (the verification links are read from it), the label's
 * name, a VAT rate and a bonus per track set. Each changed screen is photographed at 1280×800,
 * 390×844 and 360×740 (into SHOTS_DIR, to be looked at), and none may scroll sideways.
 */
const BASE = ownServerBase('every-screen');
const ROOT = path.resolve(import.meta.dirname, '../..');
const SHOTS = process.env.SHOTS_DIR ?? path.join(ROOT, 'test-results/every-screen');
const LABEL = 'Nachtfalter Records';
const DAY = 86_400_000;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
  { width: 360, height: 740 },
] as const;

let smtp: TestSmtpServer;
let server: OwnServer;

test.use({ baseURL: BASE, viewport: SIZES[0] });
// Generous: each test photographs its screens at three widths, on a machine the CI shares.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startTestSmtpServer();
  mkdirSync(SHOTS, { recursive: true });
  server = await startOwnServer('every-screen', {
    SMTP_URL: smtp.url,
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    LABEL_LEGAL_NAME: LABEL,
    VAT_RATE: '20',
    BONUS_PER_TRACK_USD: '25',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

/** The page at each size: nothing wider than the screen, and a full-page screenshot to look at. */
async function shootAll(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    // What sticks out, named, so a failure says where to look.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(-3)
        .map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute('class')).slice(0, 80)} "${(el.textContent ?? '').slice(0, 40)}"`),
    );
    expect(overflow, `${name} scrolls sideways at ${size.width} px: ${wide.join(' | ')}`).toBeLessThanOrEqual(0);
    // From the top: a full-page capture of a scrolled page draws the sticky header mid-page.
    if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/${name}-${size.width}.png`, fullPage });
  }
  await page.setViewportSize(SIZES[0]);
}

const newArtist = (page: Page | APIRequestContext, artistName = 'Velvet Tides — The Long-Named Nocturnal Ensemble') =>
  registerArtist(page, { prefix: 'screens', profile: { artistName, country: 'Iceland', instagramHandle: '@velvettides' } });

async function adminApi(): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: BASE });
  expect((await api.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  return api;
}

const top = async (locator: Locator) => (await locator.boundingBox())!.y;

test('the wizard waits for ticked lyrics and for a specific release date, and says why beside the field', async ({ page }) => {
  await newArtist(page);
  await page.goto('/submit');
  const next = page.getByRole('button', { name: 'Next' });
  await page.getByRole('radio', { name: /Share a link/ }).click();
  await page.getByLabel('Link to your music').fill('https://soundcloud.com/velvet/tides');
  await expect(next).toBeEnabled();

  await page.getByRole('radio', { name: 'Specific date' }).click();
  const date = page.locator('#release-date');
  await expect(date).toHaveAccessibleDescription('Choose the release date, or pick another option');
  await expect(next).toBeDisabled();
  await shootAll(page, 'wizard-specific-date');
  await date.fill('2030-03-01');
  await expect(next).toBeEnabled();
  await next.click();

  await page.getByLabel(/Song title/).fill('Northern Static');
  await page.getByLabel('This song has lyrics').click();
  const lyrics = page.locator('#lyrics');
  await expect(lyrics).toHaveAccessibleDescription('Add the lyrics, or untick "This song has lyrics"');
  await expect(next).toBeDisabled();
  await lyrics.fill('   ');
  await expect(next).toBeDisabled();
  await shootAll(page, 'wizard-lyrics-required');
  await lyrics.fill('Static on the northern line\nwe drive until the signal dies');
  await expect(next).toBeEnabled();
  await next.click();
  await next.click();
  await next.click();
  await expect(page.getByText('Step 5 of 5')).toBeVisible();
  await expect(page.getByText('Unreleased · 2030-03-01')).toBeVisible();
  await expect(page.getByText('(not set)')).toHaveCount(0);
});

test('the dashboard says when the email link worked, and that a link opened again changes nothing', async ({ page }) => {
  const { email } = await newArtist(page);
  const sent = await smtp.waitFor((m) => m.to.includes(email) && /verify-email\?token=/.test(m.mail.text ?? ''), 30_000);
  const link = /https?:\/\/\S+\/api\/verify-email\?token=[\w-]+/.exec(sent.mail.text ?? '')![0];

  // A link that is no link: the banner says so, and the address is still to confirm.
  await page.goto(`${BASE}/api/verify-email?token=not-a-token`);
  await expect(page.getByRole('status').filter({ hasText: 'This link is invalid or has expired' })).toContainText('Please confirm your email address');

  await page.goto(link);
  const notice = page.getByRole('status').filter({ hasText: 'Your email address is confirmed.' });
  await expect(notice).toBeVisible();
  // Said once: the address loses its ?verification, so a reload says nothing more.
  await expect(page).toHaveURL(/\/dashboard$/);
  await shootAll(page, 'verified-notice', { fullPage: false });
  await page.reload();
  await expect(page.getByRole('heading', { name: /Your Submissions/ })).toBeVisible();
  await expect(notice).toHaveCount(0);

  // The same link again: refused, and the artist is told nothing is wrong.
  await page.goto(link);
  const reused = page.getByRole('status').filter({ hasText: 'This link is invalid or has expired' });
  await expect(reused).toContainText('Your email address is already confirmed: there is nothing more to do.');
  await shootAll(page, 'verified-link-reused', { fullPage: false });
  await reused.getByRole('button', { name: 'Dismiss' }).click();
  await expect(reused).toHaveCount(0);
});

test('a first-time artist with only a draft is welcomed, the draft has no plan yet, and the profile dialog keeps its buttons in sight', async ({ page }) => {
  await registerArtist(page, { prefix: 'first' });
  const draft = await page.request.post('/api/submissions/drafts', { data: { songTitle: 'Half-Written Hymn', draftStep: 2 } });
  expect(draft.status()).toBe(201);
  await page.goto('/dashboard');

  const dialog = page.getByRole('dialog', { name: 'Complete your artist profile' });
  await expect(dialog.getByLabel(/Artist name/)).toBeVisible();
  await expect(dialog.getByText('*', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Save profile' }).click();
  await expect(dialog.getByText('Artist name is required')).toBeVisible();
  // The error under Artist name leaves Country where it was, beside it.
  expect(await top(dialog.getByLabel('Country'))).toBe(await top(dialog.getByLabel(/Artist name/)));
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expect(dialog.getByRole('button', { name: 'Save profile' })).toBeInViewport();
    await expect(dialog.getByRole('button', { name: 'Later' })).toBeInViewport();
  }
  await shootAll(page, 'profile-dialog', { fullPage: false });
  await dialog.getByRole('button', { name: 'Later' }).click();

  await expect(page.getByRole('heading', { name: 'Welcome, Mara!' })).toBeVisible();
  const row = page.getByTestId('submission-row').filter({ hasText: 'Half-Written Hymn' });
  await expect(row.getByText('No plan yet')).toBeVisible();
  await expect(row.getByText('Free', { exact: true })).toHaveCount(0);
  await shootAll(page, 'dashboard-first-draft');

  // The wizard's artist name stands in with the person's own name when no artist name is set.
  await page.goto('/submit');
  await page.getByRole('radio', { name: /Share a link/ }).click();
  await page.getByLabel('Link to your music').fill('https://soundcloud.com/mara/hymn');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByLabel(/Artist name/)).toHaveValue('Mara Quill');
});

test('the Outbox pages by twenty and finds an email by recipient or subject', async ({ page }) => {
  // Thirty new artists: thirty verification emails.
  const emails: string[] = [];
  for (let i = 0; i < 30; i++) {
    const api = await playwrightRequest.newContext({ baseURL: BASE });
    const email = uniqueEmail(`outbox${i}`);
    expect((await api.post('/api/register', { data: { firstName: 'Outbox', lastName: `Artist ${i}`, email, password: PASSWORD } })).status()).toBe(201);
    emails.push(email);
    await api.dispose();
  }
  expect((await page.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  await page.goto('/admin/outbox');
  const list = page.getByRole('list', { name: 'Emails' });
  await expect(list.getByRole('listitem')).toHaveCount(20);
  const pages = page.getByRole('navigation', { name: 'Pages' });
  await expect(pages).toContainText(/Page 1 of \d+ · \d+ emails/);
  await shootAll(page, 'outbox');
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(pages).toContainText(/Page 2 of/);

  const search = page.getByRole('searchbox', { name: 'Search emails' });
  await search.fill(emails[7]!.toUpperCase());
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText(emails[7]!);
  // A new search starts again from the first page.
  await expect(pages).toHaveCount(0);
  await shootAll(page, 'outbox-search');
  await search.fill('no email says this');
  await expect(page.getByText('No emails match.')).toBeVisible();
});

test('at 360 px the checkout shows the card right after the summary, "Change plan" last, and the VAT the price includes', async ({ page }) => {
  await newArtist(page);
  const id = await createSubmission(page.request, { songTitle: 'Glass Cathedral', artistName: 'Velvet Tides', pricingTier: 'premium' });
  // Card payments "configured" in the browser: the server's own configuration, plus a publishable key and Stripe's stand-in.
  await page.route('**/api/config', async (route) => {
    const real = (await (await route.fetch()).json()) as Record<string, unknown>;
    await route.fulfill({ json: { ...real, stripePublishableKey: 'pk_test_screens' } });
  });
  await page.route('**/api/create-payment-intent', (route) => route.fulfill({ json: { clientSecret: 'pi_screens_secret_screens' } }));
  await page.route('https://js.stripe.com/**', (route) => route.fulfill({ contentType: 'application/javascript', body: FAKE_STRIPE_JS }));

  await page.setViewportSize(SIZES[2]);
  await page.goto(`/checkout/${id}`);
  const summary = page.getByRole('region', { name: 'Order Summary' });
  await expect(page.getByTestId('order-vat')).toHaveText('VAT included (20%): $16.50');
  const pay = page.getByRole('button', { name: /^Pay / });
  await expect(pay).toBeVisible();
  const changePlan = page.getByTestId('change-tier');
  const summaryBottom = (await summary.boundingBox())!;
  expect(await top(pay)).toBeGreaterThan(summaryBottom.y + summaryBottom.height);
  expect(await top(changePlan)).toBeGreaterThan(await top(pay));
  await shootAll(page, 'checkout');

  // Once paid (Stripe's confirmation stood in for), the success page says how its two documents differ.
  await page.route('**/api/payments/*/receipt', (route) =>
    route.fulfill({
      json: {
        submissionId: id,
        orderId: id.slice(-8).toUpperCase(),
        songTitle: 'Glass Cathedral',
        artistName: 'Velvet Tides',
        tier: 'premium',
        tierName: 'Premium',
        amount: '99.00',
        currency: 'usd',
        paymentStatus: 'succeeded',
        paidAt: new Date().toISOString(),
        paymentId: 'pi_screens',
        includes: ['DIY Edit Plan: 80 clips', '7-day delivery'],
      },
    }),
  );
  await page.goto(`/payment-success?submission=${id}`);
  await expect(page.getByTestId('documents-explained')).toContainText('the invoice is the PDF with the label');
  await expect(page.getByRole('link', { name: 'Download Receipt' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download Invoice (PDF)' })).toBeVisible();
  await shootAll(page, 'payment-success');
});

test('the bonus card is one compact summary: a line per track, one chart to switch, what a track earns and the payout account', async ({ page }) => {
  const artistApi = await playwrightRequest.newContext({ baseURL: BASE });
  const artist = await newArtist(artistApi, 'Velvet Tides');
  const team = await adminApi();
  const publish = async (songTitle: string, publishedAt: Date, views?: number) => {
    const id = await createSubmission(artistApi, { songTitle, artistName: 'Velvet Tides' });
    expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
    // Publishing waits for the rights (CONTRACT §22): the artist signs, the allowlist is done.
    await clearRights(artistApi, team, id);
    const pub = await team.put(`/api/admin/submissions/${id}/publication`, {
      data: { videoUrl: `https://youtu.be/${songTitle.replace(/\W/g, '')}`, publishedAt: publishedAt.toISOString(), subscriberCount: 31_000 },
    });
    expect(pub.ok(), await pub.text()).toBe(true);
    if (views !== undefined) expect((await team.put(`/api/admin/submissions/${id}/views`, { data: { viewsAt14Days: views } })).ok()).toBe(true);
  };
  for (const [n, views] of [[1, 18_200], [2, 15_500], [3, 40_102]] as const) await publish(`Hit number ${n}`, new Date(Date.now() - (40 - n) * DAY), views);
  await publish('After the hits, a much longer title that has to wrap somewhere', new Date(Date.now() - 5 * DAY));
  await publish('Out today', new Date());

  expect((await page.request.post('/api/login', { data: { email: artist.email, password: PASSWORD } })).ok()).toBe(true);
  await page.goto('/dashboard');
  const card = page.getByTestId('bonus-card');
  // The machine is shared: the first read after five publications (and their emails) may take a while.
  await expect(card.getByRole('heading', { name: 'Viral hits: 3 of 3' })).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('bonus-rule')).toContainText('Each of those tracks earns $25.00, paid into your payout account.');
  // The dots say what they count (issue 43).
  await expect(card.getByTestId('viral-hits-progress')).toHaveText('Bonus unlocked');
  await expect(card.getByTestId('bonus-payout-note')).toContainText('set up payouts in Billing');

  const tracks = card.getByTestId('bonus-track');
  await expect(tracks).toHaveCount(5);
  // One detail and at most one chart, whichever track is chosen.
  const detail = card.getByTestId('bonus-track-detail');
  await expect(detail).toHaveCount(1);
  await expect(tracks.filter({ hasText: 'Out today' })).toHaveAttribute('aria-pressed', 'true');
  // Published today: no "0 views so far", but when the first figures come.
  await expect(detail.getByTestId('views-chart-empty')).toContainText('two to three days after publishing');
  await tracks.filter({ hasText: 'Hit number 3' }).click();
  await expect(tracks.filter({ hasText: 'Hit number 3' })).toHaveAttribute('aria-pressed', 'true');
  await expect(detail).toContainText('Hit number 3');
  await expect(detail).toContainText('Needs 15,500 views');
  await expect(tracks.filter({ hasText: 'Hit number 3' })).toContainText('40,102 views · Viral hit');
  await expect(card.getByTestId('bonus-earnings')).toContainText('Out today: $25.00');

  for (const size of SIZES) {
    await page.setViewportSize(size);
    const box = (await card.boundingBox())!;
    expect(box.height, `bonus card at ${size.width} px`).toBeLessThan(size.width >= 1280 ? 700 : 1100);
  }
  await shootAll(page, 'dashboard-bonus');
  await card.screenshot({ path: `${SHOTS}/bonus-card-1280.png` });
  await artistApi.dispose();
  await team.dispose();
});

test('the team’s phone header names its screens, and the laptop toolbar labels Templates and CSV', async ({ page }) => {
  const artistApi = await playwrightRequest.newContext({ baseURL: BASE });
  await newArtist(artistApi);
  const id = await createSubmission(artistApi, { songTitle: 'Desk Screens', artistName: 'Velvet Tides', pricingTier: 'free' });
  expect((await page.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  // Approved: the production panel, with its delivery picker, shows.
  expect((await page.request.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  await page.goto('/admin');
  await expect(page.getByRole('button', { name: 'Templates' })).toHaveText(/Templates/);
  await expect(page.getByRole('link', { name: 'CSV' })).toHaveText(/CSV/);
  // On the toolbar's one line at 1280 px, not cut off by the card's edge.
  const csv = (await page.getByRole('link', { name: 'CSV' }).boundingBox())!;
  const card = (await page.getByRole('heading', { name: 'All Submissions' }).locator('xpath=../..').boundingBox())!;
  expect(csv.x + csv.width).toBeLessThanOrEqual(card.x + card.width);
  expect(csv.y).toBeLessThan(card.y + 60);
  await shootAll(page, 'admin-desk', { fullPage: false });

  await page.setViewportSize(SIZES[2]);
  await expect(page.getByTestId('admin-access-badge')).toHaveText('Admin', { useInnerText: true });
  await expect(page.getByRole('link', { name: 'Users' })).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Team screens' });
  for (const name of ['Users', 'Outbox', 'Channel', 'User View']) await expect(menu.getByRole('link', { name })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/admin-phone-menu-360.png` });
  await menu.getByRole('link', { name: 'Outbox' }).click();
  await expect(page).toHaveURL(/\/admin\/outbox$/);
  await expect(menu).toHaveCount(0);
  await page.setViewportSize(SIZES[0]);

  // The submission's dialog: the delivery picker in the product's words, the payment said once.
  await page.goto('/admin');
  const row = page.getByTestId('admin-submission-row').filter({ hasText: 'Desk Screens' });
  await row.getByRole('button', { name: 'View details of Desk Screens' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submission Details - Desk Screens' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Choose files', { exact: true })).toBeVisible();
  await expect(dialog.getByTestId('deliverable-chosen')).toHaveText('None chosen yet');
  await dialog.getByLabel(/Files \(images, ZIP, audio, video\)/).setInputFiles([
    { name: 'cover-square.png', mimeType: 'image/png', buffer: Buffer.from('not really a png') },
    { name: 'teaser.mp4', mimeType: 'video/mp4', buffer: Buffer.from('not really a video') },
  ]);
  await expect(dialog.getByTestId('deliverable-chosen')).toHaveText('2 files: cover-square.png, teaser.mp4');
  await expect(dialog.getByText('No file chosen')).toHaveCount(0);
  await shootAll(page, 'admin-details', { fullPage: false });
  await dialog.getByTestId('deliverable-chosen').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/admin-delivery-picker-1280.png` });
  await artistApi.dispose();
});

test('the landing page names the label', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByTestId('label-name')).toHaveText(`${LABEL} · For artists of dark and atmospheric music`);
  await expect(page.getByText(`Submit a song or a finished video to ${LABEL}.`, { exact: false })).toBeVisible();
  await shootAll(page, 'landing', { fullPage: false });
});
