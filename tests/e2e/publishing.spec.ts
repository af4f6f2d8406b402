import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, request as playwrightRequest, test, type Locator, type Page } from '@playwright/test';
import { startTestOidcProvider, type TestOidcProvider } from '../../src/server/test/oidc-provider';
import { startYouTubeStub, type YouTubeStub } from '../../src/server/test/youtube-stub';
import { createSubmission, newArtistApi, PASSWORD, shoot, uploadBytes, clearRights } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';
import { PRODUCTION_TEXTS, PUBLISHING_TEXTS, YOUTUBE_REFUSAL_ADVICE } from '../../src/shared/production-texts';

/**
 * Publishing on the label's channel (issue 24, CONTRACT §16), in the browser: approve → deliver
 * a video → connect the channel → review the draft → publish → the artist sees Published, the
 * link and the chart. The spec runs a server of its own, wired to the OpenID test provider and
 * the YouTube stub it starts (own-server.ts).
 */
const BASE = ownServerBase('publishing');
const ROOT = path.resolve(import.meta.dirname, '../..');
const SHOTS = path.join(ROOT, 'test-results/publishing-screens');
const ADMIN = { email: 'publishing-admin@example.com', password: 'publishing-admin-1' };

let provider: TestOidcProvider;
let stub: YouTubeStub;
let server: OwnServer;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  provider = await startTestOidcProvider();
  stub = await startYouTubeStub({ subscribers: 2000 });
  stub.verifyBearer = (token) => provider.verify(token);
  stub.defaultDailyViews = 1200;
  mkdirSync(SHOTS, { recursive: true });
  server = await startOwnServer('publishing', {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    YOUTUBE_OAUTH_CLIENT_ID: 'label-channel-client',
    YOUTUBE_OAUTH_CLIENT_SECRET: 'label-channel-secret',
    GOOGLE_ISSUER: provider.issuer,
    YOUTUBE_API_URL: stub.url,
    YOUTUBE_ANALYTICS_URL: stub.url,
  });
});

test.afterAll(async () => {
  await server?.stop();
  await stub?.close();
  await provider?.stop();
});

/** An MP4 as file-type knows one (an `ftyp` box), with a megabyte of payload. */
function mp4(): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isommp41')]);
  const payload = Buffer.alloc(1024 * 1024, 3);
  const mdatHeader = Buffer.alloc(8);
  mdatHeader.writeUInt32BE(payload.length + 8);
  mdatHeader.write('mdat', 4);
  return Buffer.concat([ftyp, mdatHeader, payload]);
}

test('approve, deliver, connect the channel, review the draft, publish: the artist sees it published with the chart', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const artist = await newArtistApi(BASE, { profile: { artistName: 'Nocturne Collective', country: 'Iceland', instagramHandle: '@nocturne' } });
  const submissionId = await createSubmission(artist.api, { artistName: 'Nocturne Collective' });

  const admin = await playwrightRequest.newContext({ baseURL: BASE });
  expect((await admin.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  expect((await admin.patch(`/api/admin/submissions/${submissionId}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  await clearRights(artist.api, admin, submissionId);
  const url = await uploadBytes(admin, mp4(), 'application/octet-stream');
  const checked = await admin.put('/api/admin/deliverable-files', { data: { deliverableFileURL: url, fileName: 'night-drive-final.mp4' } });
  expect(checked.ok(), await checked.text()).toBe(true);
  const { objectPath } = (await checked.json()) as { objectPath: string };
  expect((await admin.post(`/api/admin/submissions/${submissionId}/deliverables`, { data: { objectPaths: [objectPath] } })).status()).toBe(201);

  // Without a channel the desk offers the draft to copy.
  expect((await page.request.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  await page.goto(`/admin?submission=${submissionId}`);
  const draft = page.getByTestId('publication-draft');
  await expect(draft).toContainText('Nocturne Collective - Night Drive');
  await expect(draft.getByRole('button', { name: 'Copy the title' })).toBeVisible();
  await draft.scrollIntoViewIfNeeded();
  await shoot(page, SHOTS, 'desk-draft-to-copy');

  // The team connects the label's channel.
  await page.goto('/admin/channel');
  await shoot(page, SHOTS, 'channel-not-connected');
  await page.getByRole('link', { name: 'Connect the channel' }).click();
  await expect(page).toHaveURL(`${BASE}/admin/channel`);
  await expect(page.getByTestId('channel-title')).toHaveText('Label Channel');
  await expect(page.getByTestId('channel-subscribers')).toHaveText('2,000 subscribers');
  await shoot(page, SHOTS, 'channel-connected');

  // The desk offers the draft; the team edits the title and publishes.
  await page.goto(`/admin?submission=${submissionId}`);
  const form = page.getByRole('form', { name: 'Publish on the channel' });
  await expect(form.getByLabel('Title')).toHaveValue('Nocturne Collective - Night Drive');
  await expect(form.getByLabel('Description')).toHaveValue(/Instagram: https:\/\/www\.instagram\.com\/nocturne/);
  await form.getByLabel('Title').fill('Nocturne Collective - Night Drive (Official Video)');
  await form.scrollIntoViewIfNeeded();
  await shoot(page, SHOTS, 'desk-publish-form');
  // The artist has not approved this cut (CONTRACT §17): the team is asked, and confirms.
  await form.getByRole('button', { name: 'Publish on YouTube' }).click();
  const asked = page.getByRole('alertdialog', { name: 'Publish an unapproved cut?' });
  await expect(asked).toContainText(PRODUCTION_TEXTS.unapprovedCutConfirm);
  await asked.getByRole('button', { name: 'Publish anyway' }).click();
  await expect(page.getByTestId('youtube-progress').getByRole('link')).toHaveText(/https:\/\/www\.youtube\.com\/watch\?v=/, { timeout: 30_000 });
  await shoot(page, SHOTS, 'desk-published');
  expect([...stub.videos.values()].map((v) => v.title)).toContain('Nocturne Collective - Night Drive (Official Video)');

  // The artist sees it published, with the link and the chart.
  const artistContext = await browser.newContext({ baseURL: BASE });
  expect((await artistContext.request.post('/api/login', { data: { email: artist.email, password: PASSWORD } })).ok()).toBe(true);
  const artistPage = await artistContext.newPage();
  await artistPage.goto('/dashboard');
  const card = artistPage.getByTestId('bonus-card');
  await expect(card.getByRole('link', { name: 'Night Drive' })).toHaveAttribute('href', /youtube\.com\/watch\?v=/);
  await expect(card.getByTestId('views-chart')).toBeVisible();
  await expect(artistPage.getByText('Published').first()).toBeVisible();
  await shoot(artistPage, SHOTS, 'artist-bonus-chart');
  await artistContext.close();
  await admin.dispose();
  await artist.api.dispose();
});

test('one publish path: deliver and publish at once, a quota refusal explained in the panel and the desk list, then published; the link by hand folded away', async ({ page }) => {
  test.setTimeout(120_000);
  // The channel was connected by the first journey.
  const artist = await newArtistApi(BASE, { profile: { artistName: 'Quota Quartet' } });
  const songTitle = `Quota ${Date.now()}`;
  const submissionId = await createSubmission(artist.api, { artistName: 'Quota Quartet', songTitle });
  const admin = await playwrightRequest.newContext({ baseURL: BASE });
  expect((await admin.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  expect((await admin.patch(`/api/admin/submissions/${submissionId}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  // Publishing waits for the rights (CONTRACT §22): the artist signs, the allowlist is done.
  await clearRights(artist.api, admin, submissionId);

  expect((await page.request.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  await page.goto(`/admin?submission=${submissionId}`);
  const dialog = page.getByRole('dialog');
  // Nothing delivered yet: the channel path says what it needs; recording a link by hand is folded away, labelled as such.
  await expect(dialog.getByText('Deliver the video (or use the artist')).toBeVisible();
  const byHand = dialog.getByTestId('record-by-hand');
  await expect(byHand.getByText(PRODUCTION_TEXTS.recordByHand)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Record publication' })).toBeHidden();

  // Deliver the cut and publish straight away (issue 36: this once sent no video, "Not a file uploaded to this site").
  await dialog.getByLabel('Files (images, ZIP, audio, video)').setInputFiles({ name: 'quota-cut.mp4', mimeType: 'video/mp4', buffer: mp4() });
  await dialog.getByRole('button', { name: 'Deliver files' }).click();
  const form = dialog.getByRole('form', { name: 'Publish on the channel' });
  await expect(form.getByLabel('Video')).toHaveValue(/\/objects\/uploads\//, { timeout: 30_000 });
  stub.refuseInsert = { status: 403, message: 'The request cannot be completed because you have exceeded your quota.', reason: 'quotaExceeded' };
  await form.getByRole('button', { name: 'Publish on YouTube' }).click();
  // The cut is not approved: the product's own question (CONTRACT §21), answered.
  await page.getByRole('alertdialog', { name: 'Publish an unapproved cut?' }).getByRole('button', { name: 'Publish anyway' }).click();

  // What to do about it in words; YouTube's own sentence folded beneath, for the team (issue 43 item 11).
  const progress = dialog.getByTestId('youtube-progress');
  await expect(progress.getByTestId('youtube-advice')).toHaveText(YOUTUBE_REFUSAL_ADVICE.quotaExceeded!, { timeout: 30_000 });
  const raw = progress.getByTestId('youtube-raw-error');
  await expect(raw.getByText(/you have exceeded your quota/)).toBeHidden();
  await raw.getByText(PUBLISHING_TEXTS.rawError).click();
  await expect(raw.getByText(/you have exceeded your quota/)).toBeVisible();
  await expect(page.getByText('Not a file uploaded to this site')).toHaveCount(0);
  await shootInView(page, progress, 'desk-quota-advice');

  // The desk list names it too.
  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  const badge = page.getByTestId('desk-publishing').first();
  await expect(badge).toHaveText('Not published: YouTube quota used up');
  await expect(badge).toHaveAttribute('title', YOUTUBE_REFUSAL_ADVICE.quotaExceeded!);
  // The list is a table at 1280 and cards at 390: the resize draws the badge anew, so the badge is
  // looked for in the layout of that width (the table's badge, still attached for a moment after
  // the resize, would be gone by the time it is scrolled to).
  for (const [width, height, layout] of [
    [1280, 800, page.getByRole('row')],
    [390, 844, page.getByTestId('admin-submission-card')],
  ] as const) {
    await page.setViewportSize({ width, height });
    const drawn = layout.getByTestId('desk-publishing').first();
    await expect(drawn).toHaveText('Not published: YouTube quota used up');
    await drawn.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `desk-list-quota-${width}.png`) });
  }

  // The quota is back: the same path publishes it.
  stub.refuseInsert = null;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/admin?submission=${submissionId}`);
  await dialog.getByRole('form', { name: 'Publish on the channel' }).getByRole('button', { name: 'Publish on YouTube' }).click();
  await page.getByRole('alertdialog', { name: 'Publish an unapproved cut?' }).getByRole('button', { name: 'Publish anyway' }).click();
  await expect(dialog.getByTestId('youtube-progress').getByRole('link')).toHaveText(/https:\/\/www\.youtube\.com\/watch\?v=/, { timeout: 30_000 });
  await admin.dispose();
  await artist.api.dispose();
});

test('day 14 has passed but Analytics has not reported the last days: the desk shows the next try, the artist sees it is being counted', async ({ page, browser }) => {
  test.setTimeout(120_000);
  // Analytics reports three days late; the channel was connected by the journey above.
  stub.reportLagDays = 3;
  const artist = await newArtistApi(BASE, { profile: { artistName: 'Lumen Field' } });
  const submissionId = await createSubmission(artist.api, { artistName: 'Lumen Field', songTitle: 'Slow Tide' });
  const admin = await playwrightRequest.newContext({ baseURL: BASE });
  expect((await admin.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  expect((await admin.patch(`/api/admin/submissions/${submissionId}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  await clearRights(artist.api, admin, submissionId);
  const publishedAt = new Date(Date.now() - 14 * 86_400_000 - 60 * 60 * 1000);
  const recorded = await admin.put(`/api/admin/submissions/${submissionId}/publication`, {
    data: { videoUrl: 'https://www.youtube.com/watch?v=slowTIDE123', publishedAt: publishedAt.toISOString() },
  });
  expect(recorded.ok(), await recorded.text()).toBe(true);

  expect((await page.request.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  await page.goto(`/admin?submission=${submissionId}`);
  const state = page.getByTestId('views-check-state');
  // The check runs within seconds; each look reloads the details and waits for the panel first
  // (on a busy machine it takes longer to draw than the short look at its state).
  await expect(async () => {
    await page.reload();
    await expect(state).toBeVisible({ timeout: 15_000 });
    await expect(state).toContainText('Waiting for YouTube Analytics', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await shootInView(page, state, 'desk-check-waiting-for-analytics');

  const artistContext = await browser.newContext({ baseURL: BASE });
  expect((await artistContext.request.post('/api/login', { data: { email: artist.email, password: PASSWORD } })).ok()).toBe(true);
  const artistPage = await artistContext.newPage();
  await artistPage.goto('/dashboard');
  const card = artistPage.getByTestId('bonus-card');
  await expect(card).toContainText(PRODUCTION_TEXTS.countPending);
  await expect(card.getByTestId('views-chart')).toBeVisible();
  await shootInView(artistPage, card, 'artist-bonus-being-counted');
  await artistContext.close();
  await admin.dispose();
  await artist.api.dispose();
});

/** The viewport with `what` scrolled into it, at 1280×800 and 390×844 (inside a dialog a full-page shot shows the page behind). */
async function shootInView(page: Page, what: Locator, name: string): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await what.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) });
  }
}
