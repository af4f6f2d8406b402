import { expect, test, type Page } from '@playwright/test';
import { createSubmission, registerArtist, shoot, TINY_PNG, tinyMp3, toastText } from './fixtures';

/** The artist's journey: profile, the submission wizard, the dashboard list, details and delete (SPEC §2, §4, §5). */

const registerThroughApi = (page: Page, withProfile: boolean) =>
  registerArtist(page, { prefix: 'sub', profile: withProfile ? { artistName: 'Nocturne Collective' } : undefined });

const createLinkSubmission = (page: Page, songTitle: string) =>
  createSubmission(page.request, { musicUrl: 'https://soundcloud.com/nocturne/night-drive', songTitle });

const rowOf = (page: Page, songTitle: string) => page.getByTestId('submission-row').filter({ hasText: songTitle });

test('a new artist completes the profile and submits an uploaded MP3 with artwork on the free plan', async ({ page }) => {
  await registerThroughApi(page, false);
  await page.goto('/');

  const profile = page.getByRole('dialog', { name: 'Complete your artist profile' });
  await expect(profile).toBeVisible();
  await expect(profile.getByLabel('Instagram')).toHaveAttribute('placeholder', '@username');
  await expect(profile.getByLabel('Other platforms')).toHaveAttribute('placeholder', 'Beatport, Pandora, etc.');
  await profile.getByRole('button', { name: 'Save profile' }).click();
  await expect(profile.getByText('Artist name is required')).toBeVisible();
  await profile.getByLabel('Artist name').fill('Nocturne Collective');
  await profile.getByRole('button', { name: 'Save profile' }).click();
  await expect(profile).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Welcome, Nocturne Collective!' })).toBeVisible();
  await expect(page.getByText('No submissions yet')).toBeVisible();

  await page.getByRole('link', { name: 'Submit New Track' }).first().click();
  await expect(page).toHaveURL(/\/submit$/);
  await expect(page.getByText('Step 1 of 5')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();

  await page.getByLabel('Music file').setInputFiles({ name: 'night-drive.mp3', mimeType: 'audio/mpeg', buffer: tinyMp3() });
  await page.getByLabel('Cover artwork').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: TINY_PNG });
  await expect(page.getByTestId('upload-item').filter({ hasText: 'night-drive.mp3' })).toHaveAttribute('data-status', 'uploaded');
  await expect(page.getByTestId('upload-item').filter({ hasText: 'cover.png' })).toHaveAttribute('data-status', 'uploaded');
  await expect(next).toBeEnabled();
  await next.click();

  await expect(page.getByText('Step 2 of 5')).toBeVisible();
  await expect(page.getByLabel(/Artist name/)).toHaveValue('Nocturne Collective');
  await expect(next).toBeDisabled();
  await page.getByLabel(/Song title/).fill('Night Drive');
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page.getByText('Step 3 of 5')).toBeVisible();
  await next.click();
  await expect(page.getByText('Step 4 of 5')).toBeVisible();
  await expect(page.getByRole('radio', { name: /Professional/ })).toBeVisible();
  await page.getByRole('radio', { name: /Free/ }).click();
  await next.click();

  const finish = page.getByRole('button', { name: 'Finish Upload' });
  await expect(finish).toBeDisabled();
  await expect(page.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('target', '_blank');
  await page.getByLabel(/I accept the/).click();
  // The wizard saved a draft as the artist went, so finishing submits that draft.
  const created = page.waitForResponse(
    (r) => r.request().method() === 'POST' && /\/api\/submissions(\/[^/]+\/submit)?$/.test(new URL(r.url()).pathname),
  );
  await finish.click();
  const body = (await (await created).json()) as { musicFileUrl: string; artworkUrl: string; pricingTier: string };
  expect(body.musicFileUrl).toMatch(/^\/objects\/uploads\//);
  expect(body.artworkUrl).toMatch(/^\/objects\/uploads\//);

  await expect(toastText(page, 'Submission Created')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const row = rowOf(page, 'Night Drive');
  await expect(row).toBeVisible();
  await expect(row.getByText('Pending', { exact: true })).toBeVisible();
  await expect(row.getByText('Free', { exact: true })).toBeVisible();
  await expect(row.getByRole('img', { name: 'Artwork of Night Drive' })).toHaveAttribute('src', body.artworkUrl);

  await row.getByRole('button', { name: 'View Night Drive' }).click();
  const details = page.getByRole('dialog', { name: 'Submission Details' });
  await expect(details.getByTestId('audio-player')).toBeVisible();
  await expect(details.getByRole('slider', { name: 'Volume' })).toHaveAttribute('step', '0.1');
  // The uploaded track plays from the access-checked /objects route.
  await details.getByRole('button', { name: 'Play' }).click();
  await expect(details.getByRole('button', { name: 'Pause' })).toBeVisible();
});

test('a link submission on a paid plan shows the link preview and goes to checkout', async ({ page }) => {
  await registerThroughApi(page, true);
  await page.goto('/submit');
  await page.getByRole('radio', { name: /Share a link/ }).click();
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  await page.getByLabel('Link to your music').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  await expect(next).toBeEnabled();
  await expect(page.getByTestId('link-preview')).toBeVisible({ timeout: 15_000 });
  await next.click();
  await page.getByLabel(/Song title/).fill('Cold Signal');
  await next.click();
  await next.click();
  await page.getByRole('radio', { name: /Basic/ }).click();
  await next.click();
  await page.getByLabel(/I accept the/).click();
  // On a paid plan the last step says that payment comes next.
  await expect(page.getByTestId('payment-next')).toContainText('Payment comes next: you pay $49.00 for the Basic plan');
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  await expect(page).toHaveURL(/\/checkout\/[0-9a-f-]{8,}$/);
});

test('step 1 says at once when a link is not one, and completes a bare host with https:// (issue 23)', async ({ page }) => {
  await registerThroughApi(page, true);
  await page.goto('/submit');
  await page.getByRole('radio', { name: /Share a link/ }).click();
  const next = page.getByRole('button', { name: 'Next' });
  const link = page.getByLabel('Link to your music');

  await link.fill('not a url');
  await expect(next).toBeDisabled();
  await link.blur();
  await expect(page.getByText('Please enter a valid link (http or https) to your music')).toBeVisible();
  await expect(link).toHaveAttribute('aria-invalid', 'true');
  await shoot(page, 'test-results/screens', 'step1-link-invalid');

  await link.fill('soundcloud.com/nyx/thing');
  await link.blur();
  await expect(link).toHaveValue('https://soundcloud.com/nyx/thing');
  await expect(page.getByText('Please enter a valid link (http or https) to your music')).toHaveCount(0);
  await expect(next).toBeEnabled();
});

test('stat cards filter the list and show the filtered empty state', async ({ page }) => {
  await registerThroughApi(page, true);
  await createLinkSubmission(page, 'Velvet Ruin');
  await createLinkSubmission(page, 'Glass Heart');
  await page.goto('/');

  await expect(page.getByRole('heading', { name: 'Your Submissions (2)' })).toBeVisible();
  await expect(page.getByTestId('stat-all')).toHaveText('2');
  await page.getByRole('button', { name: /Approved/ }).click();
  await expect(page.getByRole('button', { name: /Approved/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('No submissions in this category')).toBeVisible();
  await expect(page.getByText('Submissions will appear here when they match this status.')).toBeVisible();
  await expect(page.getByTestId('submission-row')).toHaveCount(0);
  await page.getByRole('button', { name: /All Submissions/ }).click();
  await expect(page.getByTestId('submission-row')).toHaveCount(2);
});

test('deleting a submission asks in the product’s own dialog', async ({ page }) => {
  await registerThroughApi(page, true);
  await createLinkSubmission(page, 'Hollow Choir');
  await page.goto('/');
  const row = rowOf(page, 'Hollow Choir');
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Delete Hollow Choir' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete "Hollow Choir"?' });
  await expect(dialog).toBeVisible();
  // A free submission: nothing to refund, so the dialog names no amount.
  await expect(dialog.getByText(/refunded/)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('button', { name: 'Delete Hollow Choir' })).toBeVisible();

  await row.getByRole('button', { name: 'Delete Hollow Choir' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete submission' }).click();
  await expect(toastText(page, 'Submission deleted')).toBeVisible();
  await expect(page.getByText('No submissions yet')).toBeVisible();
  const list = await page.request.get('/api/submissions');
  expect(await list.json()).toEqual([]);
});
