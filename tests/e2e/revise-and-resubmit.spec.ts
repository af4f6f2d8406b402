import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { registerArtist, signInAsAdmin, toastText, wav } from './fixtures';

/**
 * Revise and resubmit (CONTRACT §27): the team asks for changes with a template, the artist sends
 * a new mix from a phone, the team compares both rounds on the waveform and approves.
 */

const SHOTS = process.env.SHOTS_DIR ?? 'test-results/revise-and-resubmit';
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A mono 8 kHz WAV: a tone whose loudness follows `shape` (0..1 over the track), so each mix draws its own waveform. */
function mixWav(seconds: number, shape: (t: number) => number, rate = 8000): Buffer {
  const samples = seconds * rate;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const level = shape(i / samples) * (0.5 + 0.5 * Math.abs(Math.sin((Math.PI * i) / rate)));
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 220 * i) / rate) * 24000 * level), i * 2);
  }
  return wav(data, rate);
}

async function shot(page: Page, name: string, viewport: { width: number; height: number }) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}-${viewport.width}.png` });
}

test('the team asks for a new mix with a template, the artist sends it from a phone, the team compares both rounds and approves', async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  const songTitle = `Paper Lanterns ${Date.now().toString().slice(-5)}`;
  // The artist, on a phone.
  const phone = await browser.newContext({ baseURL: baseURL!, viewport: PHONE, isMobile: true, hasTouch: true });
  const artistPage = await phone.newPage();
  await registerArtist(artistPage, { prefix: 'revise', profile: { artistName: 'Juniper Vale' } });
  const api = artistPage.request;
  const issued = (await (await api.post('/api/objects/upload')).json()) as { uploadURL: string };
  // The first mix: quiet in the middle, where the vocals are buried.
  const first = mixWav(40, (t) => (t > 0.3 && t < 0.7 ? 0.25 : 0.9));
  expect((await api.put(issued.uploadURL, { data: first, headers: { 'content-type': 'audio/wav' } })).ok()).toBe(true);
  const music = await api.put('/api/music-files', { data: { musicFileURL: issued.uploadURL, fileName: 'paper-lanterns-mix1.wav' } });
  expect(music.ok(), await music.text()).toBe(true);
  const { objectPath } = (await music.json()) as { objectPath: string };
  const created = await api.post('/api/submissions', {
    data: {
      submissionMethod: 'upload',
      musicFileUrl: objectPath,
      releaseStatus: 'unreleased',
      artistName: 'Juniper Vale',
      songTitle,
      hasLyrics: false,
      aiUsage: false,
      videoStyle: 'non-custom',
      pricingTier: 'free',
      termsAccepted: true,
      genre: 'Darkwave',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;

  // The team, on a laptop: a template for asking for a new mix.
  await page.setViewportSize(LAPTOP);
  await signInAsAdmin(page);
  const templateName = `New mix ${songTitle.slice(-5)}`;
  const template = await page.request.post('/api/admin/review-templates', {
    data: { name: templateName, body: 'Hi {artistName}, we love "{songTitle}" but the vocals are buried in the middle section. Bring them up 3 dB and send a new mix.' },
  });
  expect(template.status()).toBe(201);
  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  await page.getByRole('button', { name: `View details of ${songTitle}` }).click();
  const details = page.getByRole('dialog', { name: `Submission Details - ${songTitle}` });
  const player = details.getByTestId('waveform-player');
  await expect(player.getByTestId('waveform-canvas')).toHaveAttribute('data-drawn', 'true', { timeout: 45_000 });
  // A comment on round 1 pointing at the place.
  const slider = player.getByRole('slider', { name: 'Seek' });
  const box = (await slider.boundingBox())!;
  await slider.click({ position: { x: box.width * (16 / 40) + 1, y: box.height / 2 } });
  await expect(player.getByTestId('player-time')).toHaveText('0:16 / 0:40');
  await player.getByLabel('Comment at 0:16').fill('Vocals disappear under the guitars here.');
  await player.getByText('Visible to the artist').click();
  await player.getByRole('button', { name: 'Add comment' }).click();
  await expect(toastText(page, 'Comment Added')).toBeVisible();

  await details.getByRole('button', { name: 'Change Status' }).click();
  const statusDialog = page.getByRole('dialog', { name: 'Change Status' });
  await statusDialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Changes Requested' }).click();
  await statusDialog.getByRole('combobox', { name: 'Template' }).click();
  await page.getByRole('option', { name: templateName }).click();
  const review = statusDialog.getByLabel('What the artist should change (required)');
  await expect(review).toHaveValue(`Hi Juniper Vale, we love "${songTitle}" but the vocals are buried in the middle section. Bring them up 3 dB and send a new mix.`);
  await shot(page, 'request-changes', LAPTOP);
  await statusDialog.getByRole('button', { name: 'Update Status' }).click();
  await expect(toastText(page, 'Status Updated')).toBeVisible();
  await expect(details.getByText('Changes Requested').first()).toBeVisible();
  await page.keyboard.press('Escape');

  // The artist, on the phone: the review, the comment, and the new mix uploaded.
  await artistPage.goto(`/dashboard?submission=${id}`);
  const artistDetails = artistPage.getByRole('dialog', { name: 'Submission Details' });
  await expect(artistDetails.getByTestId('label-review')).toContainText('Bring them up 3 dB');
  await expect(artistDetails.getByTestId('artist-track-comments')).toContainText('Vocals disappear under the guitars here.');
  const form = artistDetails.getByTestId('new-version');
  await expect(form).toContainText('nothing is charged');
  await form.getByLabel('New mix (MP3, WAV, OGG or MP4)').setInputFiles({
    name: 'paper-lanterns-mix2.wav',
    mimeType: 'audio/wav',
    buffer: mixWav(42, () => 0.9),
  });
  await expect(form.getByTestId('new-version-chosen')).toHaveText('paper-lanterns-mix2.wav');
  await form.getByLabel('What changed (optional)').fill('Vocals up 3 dB in the middle section, guitars tucked under.');
  await form.scrollIntoViewIfNeeded();
  await shot(artistPage, 'upload-new-version', PHONE);
  await form.getByRole('button', { name: 'Send new version' }).click();
  await expect(toastText(artistPage, 'New Version Sent')).toBeVisible({ timeout: 30_000 });
  await expect(artistDetails.getByTestId('new-version')).toBeHidden();
  const versions = artistDetails.getByTestId('versions-list');
  await expect(versions.getByTestId('version-item')).toHaveCount(2);
  await expect(versions).toContainText('Round 2');
  await expect(versions).toContainText('Vocals up 3 dB');
  await versions.scrollIntoViewIfNeeded();
  await shot(artistPage, 'versions', PHONE);

  // The team compares both rounds on the waveform, each with its comments, and approves.
  await page.reload();
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  await page.getByRole('button', { name: `View details of ${songTitle}` }).click();
  const rounds = details.getByTestId('desk-rounds');
  await expect(rounds.getByRole('tab', { name: 'Round 2 · current' })).toHaveAttribute('aria-selected', 'true');
  const current = rounds.getByTestId('round-player');
  await expect(current).toHaveAttribute('data-round', '2');
  await expect(current.getByTestId('waveform-canvas')).toHaveAttribute('data-drawn', 'true', { timeout: 45_000 });
  await expect(current.getByTestId('player-time')).toHaveText('0:00 / 0:42');
  await expect(current.getByText('No comments on the track yet.')).toBeVisible();
  await expect(current).toContainText('Vocals up 3 dB in the middle section');
  await current.getByTestId('waveform-player').scrollIntoViewIfNeeded();
  await shot(page, 'round-2', LAPTOP);

  await rounds.getByRole('tab', { name: 'Round 1 (original)' }).click();
  const original = rounds.getByTestId('round-player');
  await expect(original).toHaveAttribute('data-round', '1');
  await expect(original.getByTestId('waveform-canvas')).toHaveAttribute('data-drawn', 'true', { timeout: 45_000 });
  await expect(original.getByTestId('player-time')).toHaveText('0:00 / 0:40');
  await expect(original.getByTestId('comment-marker')).toHaveCount(1);
  await expect(original.getByRole('list', { name: 'Track comments' })).toContainText('Vocals disappear under the guitars here.');
  await original.getByTestId('waveform-player').scrollIntoViewIfNeeded();
  await shot(page, 'round-1', LAPTOP);

  // On a phone the desk switches rounds the same way.
  await page.setViewportSize(PHONE);
  await rounds.getByRole('tab', { name: 'Round 2 · current' }).click();
  await expect(rounds.getByTestId('round-player')).toHaveAttribute('data-round', '2');
  await rounds.scrollIntoViewIfNeeded();
  await shot(page, 'rounds', PHONE);
  await page.setViewportSize(LAPTOP);

  await details.getByRole('button', { name: 'Change Status' }).click();
  await statusDialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Approved' }).click();
  await statusDialog.getByLabel('Review for the artist (optional)').fill('The new mix is it. We are making the video.');
  await statusDialog.getByRole('button', { name: 'Update Status' }).click();
  await expect(toastText(page, 'Status Updated')).toBeVisible();

  const after = (await (await api.get(`/api/submissions/${id}`)).json()) as { status: string; round: number; pricingTier: string; paymentStatus: string | null };
  expect(after).toMatchObject({ status: 'approved', round: 2, pricingTier: 'free', paymentStatus: null });
  await phone.close();
});
