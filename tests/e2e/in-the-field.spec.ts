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

    // What the resumed upload asks for: tus's PATCHes carry the offset they start from.
    const patchOffsets: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/api/video-uploads/')) {
        patchOffsets.push(Number(request.headers()['upload-offset']));
      }
    });

    // About 350 KB at 150 KB/s (the case): the upload is under way for two seconds or so.
    await throttleUploads(page, 150 * 1024);
    await page.getByLabel('Music file').setInputFiles({ name: 'long-night.wav', mimeType: 'audio/wav', buffer: silentWav(22) });
    const row = page.getByTestId('upload-item').filter({ hasText: 'long-night.wav' });
    // Some bytes are on their way before the connection goes.
    await expect(row.getByRole('status')).toHaveText(/Uploading\.\.\. ([1-9]\d?)%/);

    await page.context().setOffline(true);
    await expect(row).toHaveAttribute('data-status', 'offline');
    await expect(row).toContainText(UPLOAD_STATE_TEXTS.offline);
    // Never blank: the wizard is still there, and so is a toast-free page.
    await expect(page.getByText('Step 1 of 5')).toBeVisible();
    if (viewport.width === 390) await page.screenshot({ path: `${SHOTS}/upload-offline-390.png` });

    await page.context().setOffline(false);
    await expect(row).toHaveAttribute('data-status', 'uploaded', { timeout: 20_000 });
    await expect(page.getByText('Step 1 of 5')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next' })).toBeEnabled();
    // It resumed: a PATCH after the first started past byte 0, from what the server already had.
    expect(patchOffsets[0]).toBe(0);
    expect(patchOffsets.length).toBeGreaterThan(1);
    expect(patchOffsets.at(-1)).toBeGreaterThan(0);
  });
}

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
