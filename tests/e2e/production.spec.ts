import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminApi, createSubmission, E2E_ADMIN, newArtistApi, PASSWORD, silentWav, TINY_PNG, uploadBytes, clearRights } from './fixtures';

/**
 * After approval (CONTRACT §13): the artist downloads a delivery and asks for a revision; the
 * team publishes a video; the artist's bonus card. The e2e server runs without Stripe and
 * YouTube, so the submission is a professional one the team approved before payment, and the
 * team enters the subscriber count and views; both APIs are covered against local servers in
 * src/server/features/production.
 */
const DAY = 24 * 60 * 60 * 1000;

const newArtist = (baseURL: string, artistName: string) => newArtistApi(baseURL, { prefix: 'prod', profile: { artistName } });
const submit = (api: APIRequestContext, songTitle: string, pricingTier = 'professional') => createSubmission(api, { songTitle, pricingTier });

async function approve(team: APIRequestContext, id: string) {
  expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
}

async function deliverable(team: APIRequestContext, bytes: Buffer, contentType: string, fileName: string) {
  const uploadURL = await uploadBytes(team, bytes, contentType);
  const checked = await team.put('/api/admin/deliverable-files', { data: { deliverableFileURL: uploadURL, fileName } });
  expect(checked.ok(), await checked.text()).toBe(true);
  return ((await checked.json()) as { objectPath: string }).objectPath;
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  expect((await page.request.post('/api/login', { data: { email, password } })).ok()).toBe(true);
}

test('the artist plays and downloads a delivery, downloads all as a ZIP and asks for a revision', async ({ page, baseURL }) => {
  const songTitle = `Delivered ${Date.now()}`;
  const artist = await newArtist(baseURL!, 'Nocturne Collective');
  const id = await submit(artist.api, songTitle);
  const team = await adminApi(baseURL!);
  await approve(team, id);
  const files = [await deliverable(team, TINY_PNG, 'image/png', 'cover-art.png'), await deliverable(team, silentWav(), 'audio/wav', 'teaser.wav')];
  const delivered = await team.post(`/api/admin/submissions/${id}/deliverables`, { data: { objectPaths: files, note: 'Here is the first cut.' } });
  expect(delivered.status()).toBe(201);

  await signIn(page, artist.email);
  // The "files are ready" email's link opens the submission's details.
  await page.goto(`/dashboard?submission=${id}`);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Here is the first cut.')).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Delivered files' }).getByRole('listitem')).toHaveCount(2);
  await expect(dialog.getByLabel('Play teaser.wav')).toBeVisible();

  const one = page.waitForEvent('download');
  await dialog.getByRole('link', { name: 'Download cover-art.png' }).click();
  expect((await one).suggestedFilename()).toBe('cover-art.png');
  const all = page.waitForEvent('download');
  await dialog.getByRole('link', { name: 'Download all (ZIP)' }).click();
  expect((await all).suggestedFilename()).toMatch(/\.zip$/);

  await expect(dialog.getByTestId('revisions-count')).toHaveText('Revisions: 0 of 3 used');
  await dialog.getByLabel('What should change?').fill('Brighter colours in the chorus, please.');
  await dialog.getByRole('button', { name: 'Ask for a revision (3 left)' }).click();
  await expect(page.getByText('Revision requested', { exact: true }).first()).toBeVisible();
  await expect(dialog.getByTestId('revisions-count')).toHaveText('Revisions: 1 of 3 used');
  await expect(dialog.getByText('Brighter colours in the chorus, please.')).toBeVisible();
  await artist.api.dispose();
  await team.dispose();
});

test('the team delivers files and publishes a video; the artist is told', async ({ page, baseURL }) => {
  const songTitle = `Publish ${Date.now()}`;
  const artist = await newArtist(baseURL!, 'Lunar Static');
  const id = await submit(artist.api, songTitle, 'free');
  const team = await adminApi(baseURL!);
  await approve(team, id);
  await clearRights(artist.api, team, id);

  expect((await page.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  await page.getByRole('button', { name: `View details of ${songTitle}` }).click();
  const dialog = page.getByRole('dialog');
  // The team's files go through the resumable uploader, then the delivery emails the artist.
  await dialog.getByLabel('Files (images, ZIP, audio, video)').setInputFiles({ name: 'thumbnail.png', mimeType: 'image/png', buffer: TINY_PNG });
  await dialog.getByLabel('Note for the artist').fill('The thumbnail for the video.');
  await dialog.getByRole('button', { name: 'Deliver files' }).click();
  await expect(dialog.getByRole('list', { name: 'Delivered files' })).toContainText('thumbnail.png', { timeout: 30_000 });
  await dialog.getByLabel("Video URL on the label's channel").fill('https://www.youtube.com/watch?v=e2ePublish1');
  await dialog.getByLabel('Subscribers at publishing').fill('31000');
  await dialog.getByRole('button', { name: 'Record publication', exact: true }).click();
  await expect(dialog.getByText('a hit at 15,500 views', { exact: false })).toBeVisible({ timeout: 30_000 });

  const answer = await artist.api.get(`/api/submissions/${id}/production`);
  expect(answer.ok(), await answer.text()).toBe(true);
  const state = (await answer.json()) as { publication: { subscriberCount: number } };
  expect(state.publication.subscriberCount).toBe(31_000);
  expect(((await (await artist.api.get(`/api/submissions/${id}`)).json()) as { status: string }).status).toBe('published');
  await artist.api.dispose();
  await team.dispose();
});

test('the artist’s bonus card: viral hits, thresholds and results', async ({ page, baseURL }) => {
  const artist = await newArtist(baseURL!, 'Velvet Tides');
  const team = await adminApi(baseURL!);
  const published = new Date(Date.now() - 20 * DAY).toISOString();
  for (const [index, views] of [15_500, 15_499].entries()) {
    const id = await submit(artist.api, `Bonus track ${index + 1}`, 'free');
    await approve(team, id);
    await clearRights(artist.api, team, id);
    const pub = await team.put(`/api/admin/submissions/${id}/publication`, {
      data: { videoUrl: `https://youtu.be/bonusTrack${index}`, publishedAt: published, subscriberCount: 31_000 },
    });
    expect(pub.ok(), await pub.text()).toBe(true);
    expect((await team.put(`/api/admin/submissions/${id}/views`, { data: { viewsAt14Days: views } })).ok()).toBe(true);
  }
  await signIn(page, artist.email);
  await page.goto('/dashboard');
  const card = page.getByTestId('bonus-card');
  await expect(card.getByRole('heading', { name: 'Viral hits: 1 of 3' })).toBeVisible();
  const tracks = card.getByRole('list', { name: 'Your published tracks' }).getByRole('listitem');
  await expect(tracks).toHaveCount(2);
  await expect(tracks.filter({ hasText: 'Bonus track 1' })).toContainText('15,500 views · Viral hit');
  await expect(tracks.filter({ hasText: 'Bonus track 2' })).toContainText('15,499 views · Not a hit');
  await expect(card.getByTestId('bonus-track-detail')).toContainText('Needs 15,500 views');
  await artist.api.dispose();
  await team.dispose();
});
