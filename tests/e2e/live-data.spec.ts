import { expect, test, type Page } from '@playwright/test';
import { adminApi, createSubmission, E2E_ADMIN, newArtistApi, PASSWORD, silentWav, uploadBytes } from './fixtures';

/**
 * Issue 33 parts 3 and 4: one module owns the live socket and, after a drop, reads again every
 * live-backed query; the team hears the artist on the desk's row and in the header.
 */

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-33a';

/**
 * The page's live socket, passed through to the server, that the test can cut and keep cut until
 * restored; `ready()` waits for the server's greeting on a connection opened since the last call.
 */
async function cuttableSocket(page: Page) {
  let up = true;
  let greetings = 0;
  let awaited = 0;
  const open: { close(options?: { code?: number; reason?: string }): Promise<void> }[] = [];
  await page.routeWebSocket(/\/ws$/, (ws) => {
    if (!up) {
      void ws.close({ code: 4000, reason: 'network gone' });
      return;
    }
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (typeof message === 'string' && message.includes('"type":"ready"')) greetings++;
      ws.send(message);
    });
    ws.onMessage((message) => server.send(message));
    open.push(ws);
  });
  return {
    async ready() {
      awaited++;
      await expect.poll(() => greetings, { timeout: 20_000 }).toBeGreaterThanOrEqual(awaited);
      greetings = awaited;
    },
    async cut() {
      up = false;
      for (const ws of open.splice(0)) await ws.close({ code: 4000, reason: 'network gone' });
    },
    async restore() {
      up = true;
      // The browser telling the app it is online again: the connection reopens at once, not after its backoff.
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
    },
  };
}

test('after a socket drop during which the status changed, a cut was delivered and a comment posted, the artist’s dashboard and the team’s desk are right without a reload', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const songTitle = `Dropped ${Date.now()}`;
  const artist = await newArtistApi(baseURL!, { prefix: 'live', profile: { artistName: 'Nora Vex' } });
  const id = await createSubmission(artist.api, { songTitle, artistName: 'Nora Vex', pricingTier: 'free' });
  const team = await adminApi(baseURL!);

  // The artist's dashboard, this submission open.
  const artistSocket = await cuttableSocket(page);
  expect((await page.request.post('/api/login', { data: { email: artist.email, password: PASSWORD } })).ok()).toBe(true);
  await page.goto(`/dashboard?submission=${id}`);
  const artistRow = page.getByTestId('submission-row').filter({ hasText: songTitle });
  const artistDialog = page.getByRole('dialog');
  await expect(artistDialog).toBeVisible({ timeout: 30_000 });

  // The team's desk in another browser.
  const teamContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const desk = await teamContext.newPage();
  const deskSocket = await cuttableSocket(desk);
  expect((await desk.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  await desk.goto('/admin');
  // Found by its title: journeys running beside this one add dozens of newer submissions, and
  // the desk's first page holds 50.
  await desk.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  const deskRow = desk.getByTestId('admin-submission-row').filter({ hasText: songTitle });
  // A first load of the desk on a busy machine (two browsers, the server, the build's other users).
  await expect(deskRow).toBeVisible({ timeout: 30_000 });

  // Both sockets work: a status change arrives live on both sides.
  await artistSocket.ready();
  await deskSocket.ready();
  expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'under_review' } })).ok()).toBe(true);
  await expect(deskRow).toContainText('Under Review');
  await expect(artistDialog).toContainText('Under Review');

  await artistSocket.cut();
  await deskSocket.cut();

  // Meanwhile: approved, a cut delivered, the artist comments on it (from another device).
  expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  const uploadURL = await uploadBytes(team, silentWav(1), 'audio/wav');
  const checked = await team.put('/api/admin/deliverable-files', { data: { deliverableFileURL: uploadURL, fileName: 'first-mix.wav' } });
  expect(checked.ok(), await checked.text()).toBe(true);
  const { objectPath } = (await checked.json()) as { objectPath: string };
  const delivered = await team.post(`/api/admin/submissions/${id}/deliverables`, { data: { objectPaths: [objectPath], note: 'The first cut.' } });
  expect(delivered.status(), await delivered.text()).toBe(201);
  const { id: deliveryId } = (await delivered.json()) as { id: string };
  const comment = await artist.api.post(`/api/submissions/${id}/deliveries/${deliveryId}/comments`, { data: { text: 'Love the intro, shorter outro please' } });
  expect(comment.status(), await comment.text()).toBe(201);
  const status = ((await (await team.get(`/api/admin/submissions/${id}`)).json()) as { status: string }).status;
  const statusLabel = { approved: 'Approved', in_creation: 'In Creation', completed: 'Completed' }[status] ?? status;

  // Nothing of it reached the screens while the sockets were down.
  await expect(deskRow).toContainText('Under Review');
  await expect(deskRow.getByTestId('artist-activity-badge')).toHaveCount(0);

  await artistSocket.restore();
  await deskSocket.restore();
  await artistSocket.ready();
  await deskSocket.ready();

  // The artist's dashboard: the new status, the delivered cut and the comment on it.
  const version = artistDialog.getByRole('region', { name: 'Version 1' });
  await expect(version).toBeVisible({ timeout: 15_000 });
  await expect(version.getByTestId('delivery-comment')).toContainText('Love the intro, shorter outro please');
  await expect(artistDialog).toContainText(statusLabel);
  await artistDialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(artistRow).toContainText(statusLabel);

  // The team's desk: the new status, and the artist's comment as news on the row and in the header.
  await expect(deskRow).toContainText(statusLabel, { timeout: 15_000 });
  await expect(deskRow.getByTestId('artist-activity-badge')).toHaveText(/1 new/);
  // The header counts every artist's news for this admin (other journeys' too, on a shared server).
  await expect(desk.getByTestId('artist-activity-header')).toHaveAccessibleName(/^New [1-9]\d*\+? from artists$/);
  await desk.setViewportSize({ width: 390, height: 844 });
  await desk.screenshot({ path: `${SHOTS}/desk-new-from-artist-390.png` });
  await desk.setViewportSize({ width: 1280, height: 800 });

  // Seen: opening the submission clears its badge and the header's count.
  await deskRow.getByRole('button', { name: `View details of ${songTitle}` }).click();
  await expect(desk.getByRole('dialog')).toBeVisible();
  await desk.keyboard.press('Escape');
  await expect(deskRow.getByTestId('artist-activity-badge')).toHaveCount(0);
  // Remembered by the server for this admin: a reload shows no news on this submission.
  await expect
    .poll(async () => ((await (await desk.request.get('/api/admin/activity')).json()) as { submissions: { submissionId: string }[] }).submissions.some((s) => s.submissionId === id))
    .toBe(false);
  await desk.reload();
  await desk.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  await expect(deskRow).toBeVisible();
  await expect(deskRow.getByTestId('artist-activity-badge')).toHaveCount(0);

  await teamContext.close();
  await artist.api.dispose();
  await team.dispose();
});

test('the team hears the artist live: an approval on an open desk shows at once on the row and in the header', async ({ page, baseURL }) => {
  const songTitle = `Heard ${Date.now()}`;
  const artist = await newArtistApi(baseURL!, { prefix: 'live', profile: { artistName: 'Nora Vex' } });
  const id = await createSubmission(artist.api, { songTitle, artistName: 'Nora Vex', pricingTier: 'free' });
  const team = await adminApi(baseURL!);
  expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  const uploadURL = await uploadBytes(team, silentWav(1), 'audio/wav');
  const { objectPath } = (await (await team.put('/api/admin/deliverable-files', { data: { deliverableFileURL: uploadURL, fileName: 'mix.wav' } })).json()) as {
    objectPath: string;
  };
  const delivered = await team.post(`/api/admin/submissions/${id}/deliverables`, { data: { objectPaths: [objectPath], note: null } });
  const { id: deliveryId } = (await delivered.json()) as { id: string };

  const deskSocket = await cuttableSocket(page);
  expect((await page.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin');
  await deskSocket.ready();
  // Found by its title: journeys running beside this one add dozens of newer submissions, and
  // the desk's first page holds 50.
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  const deskRow = page.getByTestId('admin-submission-row').filter({ hasText: songTitle });
  await expect(deskRow).toBeVisible({ timeout: 30_000 });
  await expect(deskRow.getByTestId('artist-activity-badge')).toHaveCount(0);

  expect((await artist.api.post(`/api/submissions/${id}/deliveries/${deliveryId}/approve`)).ok()).toBe(true);
  await expect(deskRow.getByTestId('artist-activity-badge')).toHaveText(/1 new/);
  await expect(deskRow.getByTestId('artist-activity-badge')).toHaveAttribute('title', 'Nora Vex approved the cut');
  await expect(page.getByTestId('artist-activity-header')).toBeVisible();

  await artist.api.dispose();
  await team.dispose();
});
