import { expect, test, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, adminApi, createSubmission, newArtistApi, registerArtist } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';

/**
 * CONTRACT §26 "Every artist answered", in the browser: the artist sees the date the label promised
 * an answer by and their place in the queue, and sees it move when the team decides someone else's
 * submission; the desk, sorted by decision, shows the overdue one first, in red. On a server of its
 * own with a free plan's decision time of 17 seconds (DECISION_DAYS=free=0.0002) and LATE_DECISION
 * off, so the overdue one stays overdue instead of being closed.
 */
const SHOTS = process.env.DECISION_SHOTS ?? 'test-results/every-artist-answered-screens';

let server: OwnServer;
test.use({ baseURL: ownServerBase('every-artist-answered') });
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer('every-artist-answered', {
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    DECISION_DAYS: 'free=0.0002',
    LATE_DECISION: 'off',
  });
});
test.afterAll(async () => {
  await server?.stop();
});

/** The page at 1280×800 and 390×844, as `name-1280.png` and `name-390.png`, with `focus` scrolled into view. */
async function shoot(page: Page, name: string, focus?: Locator): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    if (focus) await focus.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: false });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the artist sees the decision date and their place move; the desk shows the overdue one first', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  // Jonah submitted first: he is next; Mara, a moment later, is second.
  const jonah = await newArtistApi(baseURL!, { prefix: 'jonah', profile: { artistName: 'Jonah Reyes' } });
  const saltwater = await createSubmission(jonah.api, { artistName: 'Jonah Reyes', songTitle: 'Saltwater' });

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await registerArtist(context.request, { prefix: 'mara', profile: { artistName: 'Mara Lindqvist' } });
  const lanterns = await createSubmission(context.request, { artistName: 'Mara Lindqvist', songTitle: 'Paper Lanterns' });
  const page = await context.newPage();
  await page.goto('/dashboard');
  const row = page.getByTestId('submission-row').filter({ hasText: 'Paper Lanterns' });
  await expect(row.getByTestId('row-decision')).toContainText('Decision by');
  await expect(row.getByTestId('row-decision')).toContainText('Number 2 in the queue');
  await shoot(page, 'dashboard-second', row);

  // The details say the same.
  await row.getByRole('button', { name: 'View Paper Lanterns' }).click();
  await expect(page.getByTestId('decision-promise')).toContainText('Decision by');
  await expect(page.getByTestId('queue-place')).toHaveText('Number 2 in the queue');
  await shoot(page, 'details-second');
  await page.keyboard.press('Escape');

  // The team decides Jonah's: Mara moves up.
  const team = await adminApi(baseURL!);
  expect((await team.patch(`/api/admin/submissions/${saltwater}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  await page.reload();
  await expect(row.getByTestId('row-decision')).toContainText('Next in the queue');
  await shoot(page, 'dashboard-next', row);

  // A newer submission arrives; Mara's date passes without a decision.
  const kai = await newArtistApi(baseURL!, { prefix: 'kai', profile: { artistName: 'Kai Lumen' } });
  await createSubmission(kai.api, { artistName: 'Kai Lumen', songTitle: 'Northbound' });
  await expect
    .poll(async () => ((await (await context.request.get(`/api/submissions/${lanterns}`)).json()) as { decisionDueAt: string }).decisionDueAt < new Date().toISOString(), {
      timeout: 40_000,
    })
    .toBe(true);

  // The desk, sorted by decision: the overdue one first, marked in red.
  const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  expect((await desk.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  const deskPage = await desk.newPage();
  await deskPage.goto('/admin');
  await deskPage.getByRole('combobox', { name: 'Sort' }).click();
  await deskPage.getByRole('option', { name: 'Decision queue' }).click();
  const firstRow = deskPage.getByTestId('admin-submission-row').first();
  await expect(firstRow).toContainText('Paper Lanterns');
  await expect(firstRow.getByTestId('desk-decision')).toContainText('Decision overdue');
  await expect(firstRow.getByTestId('desk-decision')).toHaveAttribute('data-overdue', 'true');
  await shoot(deskPage, 'desk-overdue-first');
  // On a phone the desk is cards; the overdue one is still first.
  await deskPage.setViewportSize({ width: 390, height: 844 });
  const firstCard = deskPage.getByTestId('admin-submission-card').first();
  await expect(firstCard).toContainText('Paper Lanterns');
  await expect(firstCard.getByTestId('desk-decision')).toHaveText('Decision overdue');

  // The away switch.
  await deskPage.setViewportSize({ width: 1280, height: 800 });
  await deskPage.getByTestId('away-switch').click();
  await expect(deskPage.getByTestId('away-switch')).toHaveAttribute('aria-pressed', 'true');

  await team.dispose();
  await jonah.api.dispose();
  await kai.api.dispose();
  await context.close();
  await desk.close();
});
