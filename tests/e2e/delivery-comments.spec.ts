import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PRODUCTION_TEXTS } from '../../src/shared/production-texts';
import { adminApi, createSubmission, E2E_ADMIN, newArtistApi, PASSWORD, uploadBytes } from './fixtures';

/**
 * CONTRACT §17 (issue 25): the artist comments at a moment of a delivered video, the team's reply
 * and its resolve arrive live, choosing the marker plays from that moment, and the artist approves
 * the final cut, which the team's open desk shows at once.
 */

const SHOTS = process.env.SHOTS_DIR;

/** A real two-second WebM made by the browser itself (a canvas through MediaRecorder). */
async function recordWebm(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 90;
    const context = canvas.getContext('2d')!;
    const stream = canvas.captureStream(25);
    const recorder = new MediaRecorder(stream, { mimeType: 'video/webm' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const done = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
    recorder.start(100);
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const frame = () => {
        const t = performance.now() - started;
        context.fillStyle = `hsl(${(t / 10) % 360} 70% 50%)`;
        context.fillRect(0, 0, 160, 90);
        if (t < 2500) requestAnimationFrame(frame);
        else resolve();
      };
      frame();
    });
    recorder.stop();
    await done;
    const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    return btoa(binary);
  });
  return Buffer.from(base64, 'base64');
}

async function deliverVideo(team: APIRequestContext, id: string, video: Buffer) {
  const uploadURL = await uploadBytes(team, video, 'video/webm');
  const checked = await team.put('/api/admin/deliverable-files', { data: { deliverableFileURL: uploadURL, fileName: 'first-cut.webm' } });
  expect(checked.ok(), await checked.text()).toBe(true);
  const { objectPath } = (await checked.json()) as { objectPath: string };
  const delivered = await team.post(`/api/admin/submissions/${id}/deliverables`, { data: { objectPaths: [objectPath], note: 'The first cut.' } });
  expect(delivered.status(), await delivered.text()).toBe(201);
}

const videoTime = (page: Page) => page.getByLabel('Play first-cut.webm').evaluate((v: HTMLVideoElement) => v.currentTime);

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.getByRole('region', { name: 'Version 1' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the artist comments at a moment of the video, the team’s reply arrives live, and the artist approves the cut', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const songTitle = `Cut ${Date.now()}`;
  const artist = await newArtistApi(baseURL!, { prefix: 'cut', profile: { artistName: 'Nora Vex' } });
  const id = await createSubmission(artist.api, { songTitle, pricingTier: 'free' });
  const team = await adminApi(baseURL!);
  expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await deliverVideo(team, id, await recordWebm(page));

  // The artist opens the delivery and comments at a moment of the video.
  expect((await page.request.post('/api/login', { data: { email: artist.email, password: PASSWORD } })).ok()).toBe(true);
  await page.goto(`/dashboard?submission=${id}`);
  const dialog = page.getByRole('dialog');
  const version = dialog.getByRole('region', { name: 'Version 1' });
  await expect(version.getByRole('heading', { name: 'Version 1', exact: true })).toBeVisible();
  const video = version.getByLabel('Play first-cut.webm');
  await expect(video).toBeVisible();
  // The player has found the recording's duration (a MediaRecorder WebM has none in its header).
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Number.isFinite(v.duration) && v.currentTime === 0 && !v.seeking)).toBe(true);
  await video.evaluate(async (v: HTMLVideoElement) => {
    v.currentTime = 1.2;
    await new Promise((resolve) => v.addEventListener('seeked', resolve, { once: true }));
  });
  await expect(version.getByRole('button', { name: 'Comment at 0:01' })).toBeVisible();
  await version.getByLabel('Comment on first-cut.webm').fill('The logo comes in too early');
  await version.getByRole('button', { name: 'Comment at 0:01' }).click();
  const thread = version.getByRole('list', { name: 'Comments on version 1' });
  await expect(thread.getByTestId('delivery-comment')).toContainText('The logo comes in too early');
  await expect(version.getByTestId('comment-marker')).toHaveCount(1);

  // The team, on its desk in another browser, sees it and replies; the artist's open page gets the reply live.
  const teamContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const desk = await teamContext.newPage();
  expect((await desk.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  await desk.goto(`/admin?submission=${id}`);
  const teamVersion = desk.getByRole('dialog').getByRole('region', { name: 'Version 1' });
  await expect(teamVersion.getByTestId('cut-not-approved')).toBeVisible();
  const teamComment = teamVersion.getByTestId('delivery-comment').filter({ hasText: 'The logo comes in too early' });
  await expect(teamComment).toContainText('0:01');
  await teamComment.getByRole('button', { name: 'Reply' }).click();
  await teamComment.getByLabel('Write a reply').fill('Moved it to the second chorus');
  await teamComment.getByRole('button', { name: 'Send' }).click();
  await expect(teamComment.getByTestId('delivery-reply')).toContainText('Moved it to the second chorus');

  await expect(thread.getByTestId('delivery-reply')).toContainText('Moved it to the second chorus', { timeout: 10_000 });
  await expect(thread.getByTestId('delivery-reply')).toContainText('label team');

  // Choosing the marker plays from that moment.
  await video.evaluate((v: HTMLVideoElement) => {
    v.pause();
    v.currentTime = 0;
  });
  await version.getByTestId('comment-marker').click();
  await expect.poll(() => videoTime(page)).toBeGreaterThanOrEqual(1.1);
  await shoot(page, 'artist-comments');
  await shoot(desk, 'team-comments');

  // The team resolves the comment; the artist's open page shows the mark without reloading.
  await teamComment.getByRole('button', { name: 'Resolve', exact: true }).click();
  await expect(teamComment.getByRole('button', { name: 'Reopen' })).toBeVisible();
  const artistComment = thread.getByTestId('delivery-comment').filter({ hasText: 'The logo comes in too early' });
  await expect(artistComment.getByRole('button', { name: 'Reopen' })).toBeVisible({ timeout: 10_000 });
  await expect(artistComment).toContainText('Resolved');

  // Publishing the cut before the artist approved it asks the team to confirm; declined, nothing is published.
  const deskDialog = desk.getByRole('dialog');
  await deskDialog.getByLabel("Video URL on the label's channel").fill('https://www.youtube.com/watch?v=e2eUnapproved');
  await deskDialog.getByLabel('Subscribers at publishing').fill('31000');
  await deskDialog.getByRole('button', { name: 'Record publication', exact: true }).click();
  // The product's own confirmation (CONTRACT §21), not the browser's.
  const question = desk.getByRole('alertdialog', { name: 'Publish an unapproved cut?' });
  await expect(question).toContainText(PRODUCTION_TEXTS.unapprovedCutConfirm);
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toBeHidden();
  expect(((await (await team.get(`/api/submissions/${id}/production`)).json()) as { publication: unknown }).publication).toBeNull();

  // The artist approves the final cut; the team's open desk shows it.
  await version.getByRole('button', { name: 'Approve as final cut' }).click();
  await page.getByRole('alertdialog', { name: 'Approve this version as the final cut?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(version.getByTestId('cut-approved')).toContainText('You approved this cut');
  await expect(teamVersion.getByTestId('cut-approved')).toContainText('Approved by the artist', { timeout: 10_000 });
  await shoot(page, 'artist-approved');
  await shoot(desk, 'team-approved');
  const state = (await (await team.get(`/api/admin/submissions/${id}`)).json()) as { approvedDeliveryId: string | null };
  expect(state.approvedDeliveryId).not.toBeNull();

  await teamContext.close();
  await artist.api.dispose();
  await team.dispose();
});
