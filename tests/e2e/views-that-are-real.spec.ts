import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { startTestOidcProvider, type TestOidcProvider } from '../../src/server/test/oidc-provider';
import { startYouTubeStub, type YouTubeStub } from '../../src/server/test/youtube-stub';
import { PRODUCTION_TEXTS } from '../../src/shared/production-texts';
import { clearRights, createSubmission, newArtistApi, PASSWORD } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';

/**
 * Views that are real (CONTRACT §25), in the browser: two hits the 14-day check screened as
 * suspect appear on the desk under "Suspect viral hits" with their evidence; the team confirms one
 * and rejects the other with a reason; the artist's bonus card says "Under review" before, and the
 * rejection's reason after. At 1280×800 and 390×844. The spec runs a server of its own, wired to
 * the OpenID test provider and the YouTube stub, whose Analytics answers carry the evidence.
 */
const BASE = ownServerBase('views-that-are-real');
const ROOT = path.resolve(import.meta.dirname, '../..');
const SHOTS = path.join(ROOT, 'test-results/views-that-are-real-screens');
const ADMIN = { email: 'views-admin@example.com', password: 'views-admin-1' };
const DAY = 86_400_000;
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

let provider: TestOidcProvider;
let stub: YouTubeStub;
let server: OwnServer;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  provider = await startTestOidcProvider();
  // 2,000 subscribers: a hit needs 1,000 views in 14 days.
  stub = await startYouTubeStub({ subscribers: 2000 });
  stub.verifyBearer = (token) => provider.verify(token);
  mkdirSync(SHOTS, { recursive: true });
  server = await startOwnServer('views-that-are-real', {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    YOUTUBE_OAUTH_CLIENT_ID: 'label-channel-client',
    YOUTUBE_OAUTH_CLIENT_SECRET: 'label-channel-secret',
    GOOGLE_ISSUER: provider.issuer,
    YOUTUBE_API_URL: stub.url,
    YOUTUBE_ANALYTICS_URL: stub.url,
    BONUS_PER_TRACK_USD: '25',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await stub?.close();
  await provider?.stop();
});

/**
 * A screenshot at both sizes, back at the laptop's size after: the whole page, or, inside a dialog
 * (which scrolls on its own), the screen around `focus` scrolled into view at each size.
 */
async function shoot(page: Page, name: string, focus?: Locator) {
  for (const size of VIEWPORTS) {
    await page.setViewportSize(size);
    if (focus) await focus.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${SHOTS}/${name}-${size.width}.png`, fullPage: !focus });
  }
  await page.setViewportSize(VIEWPORTS[0]);
}

/** 14 days of views from `publishedAt`: `perDay` each, `spike` on day 4 if given. */
function reportDays(videoId: string, publishedAt: Date, perDay: number, spike?: number) {
  const days = new Map<string, number>();
  for (let i = 0; i < 16; i++) days.set(new Date(publishedAt.getTime() + i * DAY).toISOString().slice(0, 10), i === 4 && spike ? spike : perDay + ((i * 37) % 90));
  stub.dailyViews.set(videoId, days);
}

async function publishSuspect(admin: APIRequestContext, artist: { api: APIRequestContext }, songTitle: string, videoId: string) {
  const id = await createSubmission(artist.api, { artistName: 'Mira Solace', songTitle });
  expect((await admin.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  await clearRights(artist.api, admin, id);
  const publishedAt = new Date(Date.now() - 16 * DAY);
  return { id, publishedAt, publish: () => admin.put(`/api/admin/submissions/${id}/publication`, { data: { videoUrl: `https://www.youtube.com/watch?v=${videoId}`, publishedAt: publishedAt.toISOString() } }) };
}

test('suspect hits wait on the desk with their evidence; the team confirms one and rejects one; the artist sees both states', async ({ page, browser }) => {
  test.setTimeout(150_000);
  await page.setViewportSize(VIEWPORTS[0]);
  const artist = await newArtistApi(BASE, { profile: { artistName: 'Mira Solace', country: 'Portugal' } });
  const admin = await playwrightRequest.newContext({ baseURL: BASE });
  expect((await admin.post('/api/login', { data: ADMIN })).ok()).toBe(true);

  // The team connects the label's channel (the screen reads its analytics).
  expect((await page.request.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  await page.goto('/admin/channel');
  await page.getByRole('link', { name: 'Connect the channel' }).click();
  await expect(page.getByTestId('channel-title')).toHaveText('Label Channel');

  // "Harbour Lights": most views from outside links and no link, in one burst. "Salt and Static": watched 7% on average.
  const burst = await publishSuspect(admin, artist, 'Harbour Lights', 'harbourLGT1');
  reportDays('harbourLGT1', burst.publishedAt, 60, 2400);
  stub.trafficShares.set('harbourLGT1', { EXT_URL: 0.46, NO_LINK_OTHER: 0.22, YT_SEARCH: 0.14, SUBSCRIBER: 0.1, RELATED_VIDEO: 0.08 });
  const skimmed = await publishSuspect(admin, artist, 'Salt and Static', 'saltSTATIC1');
  reportDays('saltSTATIC1', skimmed.publishedAt, 260);
  stub.averageViewPercentage.set('saltSTATIC1', 7.2);
  expect((await burst.publish()).ok()).toBe(true);
  expect((await skimmed.publish()).ok()).toBe(true);
  // The checks are due already: the queue runs them within seconds.
  for (const id of [burst.id, skimmed.id]) {
    await expect
      .poll(async () => ((await (await admin.get(`/api/submissions/${id}/production`)).json()) as { publication: { screen: { status: string } | null } }).publication.screen?.status, { timeout: 30_000 })
      .toBe('suspect');
  }

  // The artist: both under review, in plain words.
  const artistPage = await browser.newPage({ viewport: VIEWPORTS[0] });
  expect((await artistPage.request.post('/api/login', { data: { email: artist.email, password: PASSWORD } })).ok()).toBe(true);
  await artistPage.goto('/dashboard');
  const card = artistPage.getByTestId('bonus-card');
  await expect(card.getByTestId('bonus-track')).toHaveCount(2);
  await expect(card.getByTestId('bonus-track').first()).toContainText('Under review');
  await expect(card.getByTestId('bonus-screen-note')).toHaveText(PRODUCTION_TEXTS.underReview);
  await card.scrollIntoViewIfNeeded();
  await shoot(artistPage, 'artist-under-review');

  // The desk: the filter lists exactly the two suspect hits, badged.
  await page.goto('/admin');
  await page.getByRole('combobox', { name: 'Filter by viral screen' }).click();
  await page.getByRole('option', { name: 'Suspect viral hits' }).click();
  await expect(page.getByTestId('desk-viral').filter({ visible: true })).toHaveCount(2);
  await expect(page.getByText('Harbour Lights').filter({ visible: true }).first()).toBeVisible();
  await shoot(page, 'desk-suspect-filter');

  // The evidence of the burst: its reasons, its sources, its day curve, the average watched.
  await page.goto(`/admin?submission=${burst.id}`);
  const screen = page.getByRole('dialog').getByTestId('viral-screen');
  await expect(screen.getByTestId('screen-status')).toContainText('Suspect');
  await expect(screen.getByRole('list', { name: 'Why it is suspect' }).getByRole('listitem')).toHaveCount(2);
  await expect(screen.getByTestId('screen-sources')).toContainText('Outside links');
  await expect(screen.getByTestId('screen-days').locator('span[title]')).toHaveCount(14);
  await expect(screen.getByTestId('screen-watched')).toContainText('42.5% of the video');
  await shoot(page, 'desk-evidence-burst', screen);
  await screen.getByLabel(/^Reason/).fill('The burst follows a radio premiere and a music blog’s post; organic.');
  await screen.getByRole('button', { name: 'Confirm the hit' }).click();
  await expect(screen.getByTestId('screen-status')).toContainText('Confirmed by the team');

  // The skimmed one: rejected with a reason the artist will read.
  await page.goto(`/admin?submission=${skimmed.id}`);
  const second = page.getByRole('dialog').getByTestId('viral-screen');
  await expect(second.getByRole('list', { name: 'Why it is suspect' })).toContainText('Viewers watched 7.2% of the video on average, below 15%');
  await shoot(page, 'desk-evidence-skimmed', second);
  const reason = 'Most views lasted only a few seconds, so this video cannot count toward the bonus.';
  await second.getByLabel(/^Reason/).fill(reason);
  await second.getByRole('button', { name: 'Reject the hit' }).click();
  await expect(second.getByTestId('screen-status')).toContainText('Rejected by the team');
  await expect(second).toContainText(reason);
  await shoot(page, 'desk-rejected', second);

  // Nothing left to decide.
  await page.goto('/admin');
  await page.getByRole('combobox', { name: 'Filter by viral screen' }).click();
  await page.getByRole('option', { name: 'Suspect viral hits' }).click();
  await expect(page.getByTestId('desk-viral').filter({ visible: true })).toHaveCount(0);

  // The artist: one hit counts; the other is not counted, with the team's reason, in plain words.
  await artistPage.reload();
  await expect(card).toContainText('Viral hits: 1 of 3');
  await card.getByTestId('bonus-track').filter({ hasText: 'Salt and Static' }).click();
  await expect(card.getByTestId('bonus-screen-note')).toHaveText(PRODUCTION_TEXTS.notCountedBecause(reason));
  await card.scrollIntoViewIfNeeded();
  await shoot(artistPage, 'artist-rejected-reason');
  await card.getByTestId('bonus-track').filter({ hasText: 'Harbour Lights' }).click();
  await expect(card.getByTestId('bonus-screen-note')).toHaveCount(0);
  await expect(card.getByTestId('bonus-track').filter({ hasText: 'Harbour Lights' })).toContainText('Viral hit');
  await shoot(artistPage, 'artist-confirmed');
  await artistPage.close();
});
