import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createSubmission, newArtistApi, signInAsAdmin, toastText, wav } from './fixtures';

/** The review desk for a team (CONTRACT §14): bulk work with templates, the waveform, the keyboard. */

/** A mono 8 kHz WAV with a tone that swells and fades each second, so the waveform has a shape. */
function toneWav(seconds: number, rate = 8000): Buffer {
  const samples = seconds * rate;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const envelope = 0.2 + 0.8 * Math.abs(Math.sin((Math.PI * i) / rate));
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 220 * i) / rate) * 20000 * envelope), i * 2);
  }
  return wav(data, rate);
}

async function newArtist(baseURL: string, artistName: string): Promise<APIRequestContext> {
  return (await newArtistApi(baseURL, { prefix: 'desk', profile: { artistName } })).api;
}

/** What a submission of the artist's differs in from the fixtures' free submission by link. */
const submission = (artistName: string, songTitle: string, extra: Record<string, unknown> = {}) => ({ releaseStatus: 'released', artistName, songTitle, ...extra });
const submit = createSubmission;

/**
 * The list shows the search's three rows, fetched for that search. Three matching rows alone is not
 * enough: while the search waits out its debounce, the unfiltered list may hold just these three,
 * and the search's arrival then clears whatever was picked meanwhile.
 */
async function listFilteredTo(page: Page, token: string) {
  await expect(page.locator(`table[data-search="${token}"][aria-busy="false"]`)).toHaveCount(1);
  await expect(page.getByTestId('admin-submission-row')).toHaveCount(3);
}

test('bulk-approve three submissions with a template, each review filled in for its artist', async ({ page, baseURL }) => {
  const token = `Bulk${Date.now()}`;
  const artist = await newArtist(baseURL!, 'Velvet Tides');
  const titles = [`${token} One`, `${token} Two`, `${token} Three`];
  const ids: string[] = [];
  for (const title of titles) ids.push(await submit(artist, submission('Velvet Tides', title)));
  await signInAsAdmin(page);
  const template = await page.request.post('/api/admin/review-templates', {
    data: { name: `Approve ${token}`, body: 'Hi {artistName}, we are making a video for "{songTitle}".' },
  });
  expect(template.status()).toBe(201);

  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(token);
  const rows = page.getByTestId('admin-submission-row');
  await listFilteredTo(page, token);
  // One click, then shift-click: the range between is picked too.
  await rows.nth(0).getByRole('checkbox').click();
  await expect(page.getByTestId('bulk-count')).toHaveText('1 selected');
  await rows.nth(2).getByRole('checkbox').click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('bulk-count')).toHaveText('3 selected');

  await page.getByRole('toolbar', { name: 'Bulk actions' }).getByRole('button', { name: 'Change status' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Status' });
  await expect(dialog).toContainText('3 selected submissions');
  await dialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Approved' }).click();
  await dialog.getByRole('combobox', { name: 'Template' }).click();
  await page.getByRole('option', { name: `Approve ${token}` }).click();
  const review = dialog.getByLabel('Review for the artist (optional)');
  await expect(review).toHaveValue('Hi {artistName}, we are making a video for "{songTitle}".');
  await review.fill(`${await review.inputValue()} Talk soon.`);
  await dialog.getByRole('button', { name: 'Update Status' }).click();
  await expect(toastText(page, 'Status Updated')).toBeVisible();
  await expect(page.getByText('3 submissions are now Approved.').first()).toBeVisible();
  for (const title of titles) await expect(rows.filter({ hasText: title })).toContainText('Approved');
  await expect(page.getByTestId('bulk-count')).toBeHidden();

  for (const [i, id] of ids.entries()) {
    const body = (await (await artist.get(`/api/submissions/${id}`)).json()) as { status: string; adminReview: string };
    expect(body.status).toBe('approved');
    expect(body.adminReview).toBe(`Hi Velvet Tides, we are making a video for "${titles[i]}". Talk soon.`);
  }
  await artist.dispose();
});

test('a comment at 0:42 on the waveform, shared with the artist', async ({ page, baseURL }) => {
  const songTitle = `Wave ${Date.now()}`;
  const artist = await newArtist(baseURL!, 'Lunar Static');
  const issued = (await (await artist.post('/api/objects/upload')).json()) as { uploadURL: string };
  expect((await artist.put(issued.uploadURL, { data: toneWav(60), headers: { 'content-type': 'audio/wav' } })).ok()).toBe(true);
  const music = await artist.put('/api/music-files', { data: { musicFileURL: issued.uploadURL, fileName: 'wave.wav' } });
  expect(music.ok(), await music.text()).toBe(true);
  const { objectPath } = (await music.json()) as { objectPath: string };
  const id = await submit(artist, submission('Lunar Static', songTitle, { submissionMethod: 'upload', musicUrl: undefined, musicFileUrl: objectPath }));

  await signInAsAdmin(page);
  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  await page.getByRole('button', { name: `View details of ${songTitle}` }).click();
  const dialog = page.getByRole('dialog', { name: `Submission Details - ${songTitle}` });
  const player = dialog.getByTestId('waveform-player');
  // The peaks, computed by the job the upload check queued, are drawn before anything plays
  // (until they exist the player shows a plain bar and asks again every few seconds).
  await expect(player.getByTestId('waveform-canvas')).toHaveAttribute('data-drawn', 'true', { timeout: 30_000 });
  await expect(player.getByTestId('player-time')).toHaveText('0:00 / 1:00');

  const slider = player.getByRole('slider', { name: 'Seek' });
  const box = (await slider.boundingBox())!;
  await slider.click({ position: { x: box.width * (42 / 60) + 1, y: box.height / 2 } });
  await expect(player.getByTestId('player-time')).toHaveText('0:42 / 1:00');
  await player.getByLabel('Comment at 0:42').fill('The drop lands beautifully here.');
  await player.getByText('Visible to the artist').click();
  await player.getByRole('button', { name: 'Add comment' }).click();
  await expect(toastText(page, 'Comment Added')).toBeVisible();
  await expect(player.getByTestId('comment-marker')).toHaveCount(1);
  await expect(player.getByRole('list', { name: 'Track comments' })).toContainText('0:42The drop lands beautifully here.');

  const shared = (await (await artist.get(`/api/submissions/${id}/comments`)).json()) as { atSeconds: number; text: string }[];
  expect(shared).toHaveLength(1);
  expect(Math.floor(shared[0]!.atSeconds)).toBe(42);
  expect(shared[0]!.text).toBe('The drop lands beautifully here.');

  // The file is saved by a link the browser streams to disk, named by the server from its type.
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download Files' }).click();
  expect((await download).suggestedFilename()).toBe(`${songTitle.toLowerCase().replace(/ /g, '-')}_lunar-static_music.wav`);
  await artist.dispose();
});

test('an admin reviews a list with the keyboard alone', async ({ page, baseURL }) => {
  const token = `Keys${Date.now()}`;
  const artist = await newArtist(baseURL!, 'Ghost Signal');
  // Created oldest first, so the list shows C, B, A.
  for (const letter of ['A', 'B', 'C']) await submit(artist, submission('Ghost Signal', `${token} ${letter}`));
  await signInAsAdmin(page);
  await page.goto('/admin');
  const search = page.getByRole('searchbox', { name: 'Search submissions' });
  await search.fill(token);
  const rows = page.getByTestId('admin-submission-row');
  await listFilteredTo(page, token);
  await search.blur();

  await page.keyboard.press('j');
  await expect(rows.nth(1)).toHaveAttribute('data-active', 'true');
  await page.keyboard.press('Enter');
  const details = page.getByRole('dialog', { name: `Submission Details - ${token} B` });
  await expect(details).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  await page.keyboard.press('k');
  await expect(rows.nth(0)).toHaveAttribute('data-active', 'true');
  await page.keyboard.press('a');
  const status = page.getByRole('dialog', { name: 'Change Status' });
  await expect(status.getByRole('combobox', { name: 'Status' })).toHaveText('Approved');
  await page.keyboard.press('Control+Enter');
  await expect(toastText(page, 'Status Updated')).toBeVisible();
  await expect(rows.nth(0)).toContainText('Approved');
  await expect(status).toBeHidden();

  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(rows.nth(2)).toHaveAttribute('data-active', 'true');
  await page.keyboard.press('r');
  // As a person would: the dialog is there before the key that sends it.
  await expect(status.getByRole('combobox', { name: 'Status' })).toHaveText('Rejected');
  await page.keyboard.press('Control+Enter');
  await expect(status).toBeHidden();
  await expect(rows.filter({ hasText: `${token} A` })).toContainText('Rejected');

  await page.keyboard.press('x');
  await expect(page.getByTestId('bulk-count')).toHaveText('1 selected');
  await artist.dispose();
});

test('a laptop screen (1280×800) shows at least 12 whole rows of the list (CONTRACT §14)', async ({ page, baseURL }) => {
  const token = `Dense${Date.now()}`;
  const artist = await newArtist(baseURL!, 'Static Bloom');
  for (let i = 1; i <= 15; i++) await submit(artist, submission('Static Bloom', `${token} ${String(i).padStart(2, '0')}`));
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page);
  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(token);
  await expect(page.locator(`table[data-search="${token}"][aria-busy="false"]`)).toHaveCount(1);
  const rows = page.getByTestId('admin-submission-row');
  await expect(rows).toHaveCount(15);
  await page.evaluate(() => window.scrollTo(0, 0));
  // Whole rows only: a row cut by the bottom of the window does not count.
  const boxes = await rows.evaluateAll((elements) => elements.map((row) => row.getBoundingClientRect()).map((r) => ({ top: r.top, bottom: r.bottom })));
  const whole = boxes.filter((box) => box.top >= 0 && box.bottom <= 800);
  expect(whole.length, JSON.stringify(boxes.slice(0, 3))).toBeGreaterThanOrEqual(12);
  await artist.dispose();
});

test('the daily digest’s link /admin?submission={id} opens that submission’s details', async ({ page, baseURL }) => {
  const songTitle = `Linked ${Date.now()}`;
  const artist = await newArtist(baseURL!, 'Paper Moons');
  const id = await submit(artist, submission('Paper Moons', songTitle));
  await signInAsAdmin(page);
  await page.goto(`/admin?submission=${id}`);
  const dialog = page.getByRole('dialog', { name: `Submission Details - ${songTitle}` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Its job done, the link is gone: a reload shows the list alone.
  await expect(page).toHaveURL(/\/admin$/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'All Submissions' })).toBeVisible();
  await expect(dialog).toBeHidden();

  // A link to a submission that is gone says so and leaves the list usable.
  await page.goto('/admin?submission=no-such-submission');
  await expect(page.getByText('Submission not found', { exact: true }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await artist.dispose();
});

test('each row says what publishing waits for, the list filters by it, and turned-down or published work offers no allowlist to mark (issue 43 items 9, 10)', async ({ page, baseURL }) => {
  const token = `Rights${Date.now()}`;
  const artist = await newArtist(baseURL!, 'Glass Harbor');
  const team = page.request;
  await signInAsAdmin(page);
  const approve = async (id: string) => expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  const sign = async (id: string) =>
    expect((await artist.post(`/api/submissions/${id}/agreement/sign`, { data: { name: 'Glass Harbor', consent: true } })).ok()).toBe(true);
  const pending = await submit(artist, submission('Glass Harbor', `${token} Pending`));
  const unsigned = await submit(artist, submission('Glass Harbor', `${token} Unsigned`));
  await approve(unsigned);
  const allowlist = await submit(artist, submission('Glass Harbor', `${token} Allowlist`, { contentId: 'unknown' }));
  await approve(allowlist);
  await sign(allowlist);
  const complete = await submit(artist, submission('Glass Harbor', `${token} Complete`, { contentId: 'no' }));
  await approve(complete);
  await sign(complete);
  const rejected = await submit(artist, submission('Glass Harbor', `${token} Rejected`, { contentId: 'yes' }));
  expect((await team.patch(`/api/admin/submissions/${rejected}/status`, { data: { status: 'rejected' } })).ok()).toBe(true);
  const published = await submit(artist, submission('Glass Harbor', `${token} Published`, { contentId: 'yes' }));
  await approve(published);
  const recorded = await team.put(`/api/admin/submissions/${published}/publication`, {
    data: { videoUrl: 'https://youtu.be/rightsdesk1', publishedAt: new Date().toISOString(), subscriberCount: 1000, override: { reason: 'Allowlisted by phone with the distributor' } },
  });
  expect(recorded.ok(), await recorded.text()).toBe(true);
  expect(pending).toBeTruthy();

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(token);
  await expect(page.locator(`table[data-search="${token}"][aria-busy="false"]`)).toHaveCount(1);
  const rows = page.getByTestId('admin-submission-row');
  await expect(rows).toHaveCount(6);
  const rightsOf = (title: string) => rows.filter({ hasText: `${token} ${title}` }).getByTestId('desk-rights');
  await expect(rightsOf('Unsigned')).toHaveText('Agreement unsigned');
  await expect(rightsOf('Allowlist')).toHaveText('Allowlist pending');
  await expect(rightsOf('Complete')).toHaveText('Rights complete');
  await expect(rightsOf('Pending')).toHaveCount(0);
  await expect(rightsOf('Rejected')).toHaveCount(0);
  // The placeholder is whole at 1280 px: the search has its own line with the heading.
  const search = page.getByRole('searchbox', { name: 'Search submissions' });
  expect(await search.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const canvas = document.createElement('canvas').getContext('2d')!;
    canvas.font = `${style.fontSize} ${style.fontFamily}`;
    return canvas.measureText(input.placeholder).width <= input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  })).toBe(true);

  // The filter is the server's: only what waits for the allowlist.
  await page.getByRole('combobox', { name: 'Filter by rights' }).click();
  await page.getByRole('option', { name: 'Allowlist pending' }).click();
  await expect(page.locator(`table[data-search="${token}"][aria-busy="false"]`)).toHaveCount(1);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${token} Allowlist`);
  await page.screenshot({ path: 'test-results/review-desk/rights-filter-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('list', { name: 'Submissions' }).getByTestId('desk-rights')).toHaveText('Allowlist pending');
  await page.screenshot({ path: 'test-results/review-desk/rights-filter-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Still waiting: the allowlist is a to-do, with its "not done" a labelled button once done.
  await page.goto(`/admin?submission=${allowlist}`);
  let dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('desk-ai-usage')).toHaveText('No');
  await dialog.getByRole('button', { name: 'Mark allowlist done' }).click();
  await expect(dialog.getByRole('button', { name: 'Mark allowlist not done' })).toBeVisible();
  // Turned down, or published: nothing to mark, nothing waited for.
  for (const [id, end] of [
    [rejected, 'turned down'],
    [published, 'published'],
  ] as const) {
    await page.goto(`/admin?submission=${id}`);
    dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('rights-state')).toHaveText(`Nothing to do: ${end}`);
    await expect(dialog.getByTestId('allowlist-step')).toContainText(`no longer needed: ${end}`);
    await expect(dialog.getByRole('button', { name: 'Mark allowlist done' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Refund payment' })).toHaveCount(0);
  }
  await dialog.getByTestId('rights-panel').screenshot({ path: 'test-results/review-desk/rights-published-1280.png' });
  await artist.dispose();
});
