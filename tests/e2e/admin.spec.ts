import { expect, test } from '@playwright/test';
import { createSubmission, newArtistApi, PASSWORD, signInAsAdmin, silentWav, TINY_PNG, toastText, uniqueEmail, uploadBytes } from './fixtures';

/** The label's review desk (SPEC §2 'Admin dashboard', §6, §7, §8; CONTRACT §8). */

async function newArtistWithSubmission(baseURL: string, songTitle: string) {
  const { api } = await newArtistApi(baseURL, { prefix: 'desk', profile: { artistName: 'Nocturne Collective', instagramHandle: '@nocturne', deezerHandle: 'Nocturne' } });
  const musicUrl = await uploadBytes(api, silentWav(2), 'audio/wav');
  const music = await api.put('/api/music-files', { data: { musicFileURL: musicUrl, fileName: 'night-drive.wav' } });
  expect(music.ok(), await music.text()).toBe(true);
  const artUrl = await uploadBytes(api, TINY_PNG, 'image/png');
  const art = await api.put('/api/artwork-files', { data: { artworkFileURL: artUrl } });
  const styleUrls = [await uploadBytes(api, TINY_PNG, 'image/png'), await uploadBytes(api, TINY_PNG, 'image/png')];
  const style = await api.put('/api/reference-files', { data: { referenceFileURLs: styleUrls } });
  expect(style.ok(), await style.text()).toBe(true);
  const id = await createSubmission(api, {
    submissionMethod: 'upload',
    musicUrl: undefined,
    musicFileUrl: ((await music.json()) as { objectPath: string }).objectPath,
    artworkUrl: ((await art.json()) as { objectPath: string }).objectPath,
    styleReferenceUrls: ((await style.json()) as { objectPaths: string[] }).objectPaths,
    songTitle,
    description: 'A slow, dark synth piece about driving through the city at night.',
    videoStyle: 'custom',
    genre: 'Darkwave',
    mood: 'Moody',
  });
  return { api, id };
}

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
