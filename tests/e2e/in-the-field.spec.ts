import { expect, test, type Page } from '@playwright/test';
import { PART_FAILED_TEXTS, UPLOAD_STATE_TEXTS } from '../../src/shared/field-texts';
import { registerArtist, silentWav } from './fixtures';

/**
 * CONTRACT §23 "Uploads survive a dropped connection": what a phone's or a laptop's network does
 * to the app (issue 33). Offline and failed states are photographed to /tmp/shots-33a.
 */

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-33a';

/** Sends at most `bytesPerSecond` upstream, as a slow mobile connection does (Chromium's own throttling). */
async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`offline in the middle of a wizard upload at ${viewport.width}x${viewport.height}: the row says so and the upload finishes from the last byte once back`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await registerArtist(page, { prefix: 'field', profile: { artistName: 'Offline Echo' } });
    await page.goto('/submit');
    await expect(page.getByText('Step 1 of 5')).toBeVisible();

    // What the resumed upload asks for: tus asks the server where it stands (HEAD), and its
    // PATCHes carry the offset they start from.
    const patchOffsets: number[] = [];
    let offsetQuestions = 0;
    page.on('request', (request) => {
      if (!request.url().includes('/api/video-uploads/')) return;
      if (request.method() === 'PATCH') patchOffsets.push(Number(request.headers()['upload-offset']));
      if (request.method() === 'HEAD') offsetQuestions++;
    });

    // About 350 KB on a slow uplink: under way for about ten seconds, room enough to go offline
    // in the middle on a busy machine (at the 150 KB/s it was sometimes over first).
    await throttleUploads(page, 32 * 1024);
    await page.getByLabel('Music file').setInputFiles({ name: 'long-night.wav', mimeType: 'audio/wav', buffer: silentWav(22) });
    const row = page.getByTestId('upload-item').filter({ hasText: 'long-night.wav' });
    // A good part is on its way before the connection goes, and some is still to come. (The
    // browser counts bytes as sent when they enter its buffers, ahead of the throttled network:
    // at a few per cent the server may have none yet, and then a new start is right.)
    await expect(row.getByRole('status')).toHaveText(/Uploading\.\.\. ([4-7]\d)%/);

    await page.context().setOffline(true);
    await expect(row).toHaveAttribute('data-status', 'offline');
    await expect(row).toContainText(UPLOAD_STATE_TEXTS.offline);
    // Never blank: the wizard is still there, and so is a toast-free page.
    await expect(page.getByText('Step 1 of 5')).toBeVisible();
    if (viewport.width === 390) {
      await row.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/upload-offline-390.png` });
    }

    await page.context().setOffline(false);
    await expect(row).toHaveAttribute('data-status', 'uploaded', { timeout: 20_000 });
    await expect(page.getByText('Step 1 of 5')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next' })).toBeEnabled();
    // It resumed, not restarted: it asked the server for its offset, and no later PATCH started at
    // byte 0 again (when every byte had arrived before the pause, the HEAD alone finishes it).
    expect(patchOffsets[0]).toBe(0);
    expect(offsetQuestions).toBeGreaterThan(0);
    expect(patchOffsets.slice(1).filter((offset) => offset === 0)).toEqual([]);
  });
}

test('an upload the server refuses says why in its row, with a Retry that sends it again', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await registerArtist(page, { prefix: 'field', profile: { artistName: 'Offline Echo' } });
  await page.goto('/submit');
  await expect(page.getByText('Step 1 of 5')).toBeVisible();
  // A refusal that no retry mends (not 409, 429 or 5xx): the upload is not created.
  const creation = /\/api\/video-uploads$/;
  await page.route(creation, (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'The upload could not be started', code: 'invalid_input' }) })
      : route.continue(),
  );
  await page.getByLabel('Music file').setInputFiles({ name: 'short-night.wav', mimeType: 'audio/wav', buffer: silentWav(2) });
  const row = page.getByTestId('upload-item').filter({ hasText: 'short-night.wav' });
  await expect(row).toHaveAttribute('data-status', 'failed');
  await expect(row).toContainText('The upload could not be started');
  await row.scrollIntoViewIfNeeded();
  // The row fits the phone: a long reason is cut, not pushed past the screen's edge.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/upload-failed-390.png` });

  await page.unroute(creation);
  await row.getByRole('button', { name: 'Retry short-night.wav' }).click();
  await expect(row).toHaveAttribute('data-status', 'uploaded');
});

test('a lazy page whose chunk request is dropped shows a retry, not a blank page, and the retry loads it', async ({ page }) => {
  await registerArtist(page, { prefix: 'field', profile: { artistName: 'Offline Echo' } });
  await page.goto('/dashboard');
  await expect(page.getByRole('link', { name: 'Settings' })).toBeVisible();

  let reloads = 0;
  page.on('load', () => reloads++);
  const chunk = /\/assets\/account-settings-page-[^/]+\.js$/;
  await page.route(chunk, (route) => route.abort('connectionreset'));
  await page.getByRole('link', { name: 'Settings' }).click();

  // Online, a failed chunk first reloads the page once (it may be a new release); failing again
  // right after, it shows the error boundary's message instead of reloading in a loop.
  const failed = page.getByTestId('part-failed');
  await expect(failed).toBeVisible();
  await expect(failed).toContainText(PART_FAILED_TEXTS.loadTitle);
  expect(reloads).toBe(1);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/chunk-failed-390.png` });

  await page.unroute(chunk);
  await failed.getByRole('button', { name: PART_FAILED_TEXTS.retry }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(failed).toBeHidden();
  expect(reloads).toBe(1);
});

test('a page built before a release reloads itself once when its next chunk is gone (404)', async ({ page }) => {
  await registerArtist(page, { prefix: 'field', profile: { artistName: 'Offline Echo' } });
  await page.goto('/dashboard');
  await expect(page.getByRole('link', { name: 'Settings' })).toBeVisible();

  let loads = 0;
  page.on('load', () => loads++);
  // The old hash is gone once; the reloaded page, as a new release's, finds its chunk.
  let missing = true;
  await page.route(/\/assets\/account-settings-page-[^/]+\.js$/, async (route) => {
    if (missing) {
      missing = false;
      await route.fulfill({ status: 404, body: 'Not found' });
    } else {
      await route.continue();
    }
  });
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);
  expect(loads).toBe(1);
  await expect(page.getByTestId('part-failed')).toBeHidden();
});
