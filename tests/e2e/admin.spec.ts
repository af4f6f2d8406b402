import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';

/** The label's review desk (SPEC §2 'Admin dashboard', §6, §7, §8; CONTRACT §8). */

const PASSWORD = 'dark-wave-42';
const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;

/** Two seconds of 8 kHz mono silence: a WAV every Chromium build can decode and play. */
function silentWav(seconds = 2, rate = 8000): Buffer {
  const samples = seconds * rate;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples * 2, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples * 2, 40);
  return Buffer.concat([header, Buffer.alloc(samples * 2)]);
}

const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads bytes the way the browser does: upload URL, PUT, then the normalisation route. */
async function upload(api: APIRequestContext, bytes: Buffer, contentType: string): Promise<string> {
  const issued = await api.post('/api/objects/upload');
  expect(issued.ok()).toBe(true);
  const { uploadURL } = (await issued.json()) as { uploadURL: string };
  const put = await api.put(uploadURL, { data: bytes, headers: { 'content-type': contentType } });
  expect(put.ok(), await put.text()).toBe(true);
  return uploadURL;
}

async function newArtistWithSubmission(baseURL: string, songTitle: string) {
  const api = await playwrightRequest.newContext({ baseURL });
  const reg = await api.post('/api/register', { data: { firstName: 'Mara', lastName: 'Quill', email: uniqueEmail('desk'), password: PASSWORD } });
  expect(reg.status()).toBe(201);
  await api.put('/api/profile', { data: { artistName: 'Nocturne Collective', instagramHandle: '@nocturne', deezerHandle: 'Nocturne' } });
  const musicUrl = await upload(api, silentWav(), 'audio/wav');
  const music = await api.put('/api/music-files', { data: { musicFileURL: musicUrl, fileName: 'night-drive.wav' } });
  expect(music.ok(), await music.text()).toBe(true);
  const artUrl = await upload(api, TINY_PNG, 'image/png');
  const art = await api.put('/api/artwork-files', { data: { artworkFileURL: artUrl } });
  const styleUrls = [await upload(api, TINY_PNG, 'image/png'), await upload(api, TINY_PNG, 'image/png')];
  const style = await api.put('/api/reference-files', { data: { referenceFileURLs: styleUrls } });
  expect(style.ok(), await style.text()).toBe(true);
  const created = await api.post('/api/submissions', {
    data: {
      submissionMethod: 'upload',
      musicFileUrl: ((await music.json()) as { objectPath: string }).objectPath,
      artworkUrl: ((await art.json()) as { objectPath: string }).objectPath,
      styleReferenceUrls: ((await style.json()) as { objectPaths: string[] }).objectPaths,
      releaseStatus: 'unreleased',
      artistName: 'Nocturne Collective',
      songTitle,
      description: 'A slow, dark synth piece about driving through the city at night.',
      hasLyrics: false,
      aiUsage: false,
      videoStyle: 'custom',
      pricingTier: 'free',
      termsAccepted: true,
      genre: 'Darkwave',
      mood: 'Moody',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return { api, id };
}

async function signInAsAdmin(page: Page) {
  const res = await page.request.post('/api/login', { data: E2E_ADMIN });
  expect(res.ok()).toBe(true);
}

const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test('an admin reviews a submission end to end', async ({ page, baseURL }) => {
  const songTitle = `Night Drive ${Date.now()}`;
  const { api: artist, id } = await newArtistWithSubmission(baseURL!, songTitle);
  await signInAsAdmin(page);

  await page.goto('/admin');
  await expect(page.getByText('Admin Access')).toBeVisible();
  await expect(page.getByRole('link', { name: 'User View' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'All Submissions' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  const row = page.getByTestId('admin-submission-row').filter({ hasText: songTitle });
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId('admin-submission-row')).toHaveCount(1);
  await expect(row).toContainText('by Nocturne Collective (desk-');
  await expect(row).toContainText('Free');
  await expect(row).toContainText('Pending');

  await row.getByRole('button', { name: `View details of ${songTitle}` }).click();
  const dialog = page.getByRole('dialog', { name: `Submission Details - ${songTitle}` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Style Reference Images (2)');
  await expect(dialog).toContainText('Character Reference Images (0)');
  await expect(dialog.getByRole('link', { name: '@nocturne' })).toHaveAttribute('href', 'https://www.instagram.com/nocturne');
  await expect(dialog.getByText('Nocturne', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: /Message Mara Quill/ })).toBeVisible();

  // Play the stored track through the shared player.
  await dialog.getByRole('button', { name: 'Play' }).click();
  await expect(dialog.getByRole('button', { name: 'Pause' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Pause' }).click();

  // Status with a review for the artist.
  await dialog.getByRole('button', { name: 'Change status' }).click();
  const statusDialog = page.getByRole('dialog', { name: 'Change Status' });
  await statusDialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Approved' }).click();
  await statusDialog.getByLabel('Review for the artist (optional)').fill('Strong hook. We will make the video.');
  await statusDialog.getByRole('button', { name: 'Update Status' }).click();
  await expect(toastText(page, 'Status Updated')).toBeVisible();
  await expect(statusDialog).toBeHidden();
  await expect(dialog.getByText('Approved').first()).toBeVisible();

  // Internal notes.
  const notes = dialog.getByPlaceholder('Add internal notes about this submission...');
  await expect(notes).toHaveAttribute('rows', '4');
  await notes.fill('Pitch to the synthwave playlist.');
  await dialog.getByRole('button', { name: 'Save Notes' }).click();
  await expect(toastText(page, 'Notes Saved')).toBeVisible();

  // History shows both changes with the admin's name.
  const history = dialog.getByTestId('submission-history');
  await expect(history).toContainText('changed the status from Pending to Approved');
  await expect(history).toContainText('updated the internal notes');

  // Every file with one click: music, artwork, two style images.
  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  await dialog.getByRole('button', { name: 'Download Files' }).click();
  await expect(toastText(page, 'Download Started')).toBeVisible();
  await expect(page.getByText('4 file(s) are being downloaded to your device.', { exact: true }).first()).toBeVisible();
  await expect.poll(() => downloads.length, { timeout: 10_000 }).toBe(4);
  const slug = songTitle.toLowerCase().replace(/ /g, '-');
  expect(downloads.sort()).toEqual(
    [
      `${slug}_nocturne-collective_artwork.png`,
      `${slug}_nocturne-collective_music.wav`,
      `${slug}_nocturne-collective_style-1.png`,
      `${slug}_nocturne-collective_style-2.png`,
    ].sort(),
  );

  // The artist sees the review and the status, never the notes.
  const mine = await artist.get(`/api/submissions/${id}`);
  const body = (await mine.json()) as Record<string, unknown>;
  expect(body.adminReview).toBe('Strong hook. We will make the video.');
  expect(body.status).toBe('approved');
  expect(JSON.stringify(body)).not.toContain('synthwave playlist');
  await artist.dispose();
});

test('an admin deletes a submission after confirming', async ({ page, baseURL }) => {
  const songTitle = `Delete Me ${Date.now()}`;
  const { api: artist, id } = await newArtistWithSubmission(baseURL!, songTitle);
  await signInAsAdmin(page);
  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  await page.getByRole('button', { name: `Delete ${songTitle}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Submission' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toastText(page, 'Submission Deleted')).toBeVisible();
  await expect(page.getByText('No submissions found')).toBeVisible();
  expect((await artist.get(`/api/submissions/${id}`)).status()).toBe(404);
  await artist.dispose();
});

test('an artist opening /admin gets Access Denied, and the API refuses them', async ({ page }) => {
  const res = await page.request.post('/api/register', { data: { firstName: 'Ada', lastName: 'Artist', email: uniqueEmail('denied'), password: PASSWORD } });
  expect(res.status()).toBe(201);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText("You don't have admin privileges to access this page.")).toBeVisible();
  expect((await page.request.get('/api/admin/submissions')).status()).toBe(403);
  await page.getByRole('link', { name: 'Go Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/$/);
});
