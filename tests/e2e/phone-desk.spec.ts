import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN, expectAccessible, PASSWORD, uniqueEmail, wav } from './fixtures';
import { MESSAGES_SUBTITLES } from '../../src/client/features/messages/messages-texts';

/**
 * The team's screens on a phone (issue 23): the desk as cards, the details as a full-screen sheet
 * that plays the track, and no admin page wider than a 360 px screen. Screenshots of each land in
 * test-results/ to be looked at.
 */

const PHONE = { width: 390, height: 844 };
const NARROW_PHONE = { width: 360, height: 800 };
const LAPTOP = { width: 1280, height: 800 };

/** A mono 8 kHz WAV of a 220 Hz tone, long enough to be heard playing. */
function toneWav(seconds: number, rate = 8000): Buffer {
  const data = Buffer.alloc(seconds * rate * 2);
  for (let i = 0; i < seconds * rate; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 220 * i) / rate) * 12000), i * 2);
  return wav(data, rate);
}

async function newArtist(baseURL: string, artistName: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  const reg = await api.post('/api/register', { data: { firstName: 'Noor', lastName: 'Vale', email: uniqueEmail('phone'), password: PASSWORD } });
  expect(reg.status()).toBe(201);
  await api.put('/api/profile', { data: { artistName } });
  return api;
}

async function submit(api: APIRequestContext, artistName: string, songTitle: string, extra: Record<string, unknown> = {}): Promise<string> {
  const body = {
    submissionMethod: 'link',
    musicUrl: 'https://soundcloud.com/example/track',
    releaseStatus: 'released',
    artistName,
    songTitle,
    description: 'A slow-burning synth ballad about leaving a city at night.',
    hasLyrics: false,
    aiUsage: false,
    videoStyle: 'non-custom',
    pricingTier: 'free',
    termsAccepted: true,
    ...extra,
  };
  const res = await api.post('/api/submissions', { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** An uploaded track, so the details show the player rather than a link. */
async function submitWithAudio(api: APIRequestContext, artistName: string, songTitle: string): Promise<string> {
  const issued = (await (await api.post('/api/objects/upload')).json()) as { uploadURL: string };
  expect((await api.put(issued.uploadURL, { data: toneWav(30), headers: { 'content-type': 'audio/wav' } })).ok()).toBe(true);
  const music = await api.put('/api/music-files', { data: { musicFileURL: issued.uploadURL, fileName: 'night-drive.wav' } });
  expect(music.ok(), await music.text()).toBe(true);
  const { objectPath } = (await music.json()) as { objectPath: string };
  return submit(api, artistName, songTitle, { submissionMethod: 'upload', musicUrl: undefined, musicFileUrl: objectPath });
}

async function signInAsAdmin(page: Page) {
  expect((await page.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
}

/** Tags and a rating on a submission, as a reviewer would leave them, so the list looks worked on. */
async function triage(page: Page, id: string, tags: string[], score: number) {
  expect((await page.request.put(`/api/admin/submissions/${id}/tags`, { data: { tags } })).ok()).toBe(true);
  expect((await page.request.put(`/api/admin/submissions/${id}/rating`, { data: { score } })).ok()).toBe(true);
}

async function pageScrollsSideways(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
}

test('on a phone the desk is cards, and a submission opens as a full-screen sheet that plays its track', async ({ page, baseURL }) => {
  const token = `Phone${Date.now()}`;
  const songTitle = `${token} Night Drive`;
  const artist = await newArtist(baseURL!, 'Harbor Lights');
  const other = await newArtist(baseURL!, 'Velvet Static');
  const id = await submitWithAudio(artist, 'Harbor Lights', songTitle);
  const second = await submit(other, 'Velvet Static', `${token} Glass Rooms`);
  const third = await submit(other, 'Velvet Static', `${token} Slow Tide`);

  await signInAsAdmin(page);
  await triage(page, id, ['strong-hook', 'synthwave'], 5);
  await triage(page, second, ['needs-mix'], 3);
  await triage(page, third, ['strong-hook', 'late-night', 'playlist-ready'], 4);

  await page.setViewportSize(LAPTOP);
  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(token);
  await expect(page.getByTestId('admin-submission-row')).toHaveCount(3);
  // A tag is never cut mid-word on a laptop (issue 23: "strong-ho").
  const tag = page.getByTestId('admin-submission-row').filter({ hasText: 'Slow Tide' }).getByText('playlist-ready', { exact: true });
  expect(await tag.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.screenshot({ path: 'test-results/phone-desk/desk-1280.png' });

  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('admin-submission-card')).toHaveCount(3);
  await expect(page.getByTestId('admin-submission-row')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/phone-desk/desk-390.png', fullPage: true });
  const phoneWidths = await pageScrollsSideways(page);
  expect(phoneWidths.scrollWidth).toBeLessThanOrEqual(phoneWidths.clientWidth);

  // Bulk selection works from the cards.
  await page.getByRole('checkbox', { name: `Select ${token} Glass Rooms` }).click();
  await expect(page.getByText('1 selected')).toBeVisible();
  await page.getByRole('checkbox', { name: `Select ${token} Glass Rooms` }).click();

  await page.getByRole('button', { name: `View details of ${songTitle}` }).click();
  const dialog = page.getByRole('dialog', { name: `Submission Details - ${songTitle}` });
  await expect(dialog).toBeVisible();
  // The sheet fills the screen, so nothing of it is off to the side or below the fold.
  await expect.poll(async () => dialog.boundingBox()).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
  await page.screenshot({ path: 'test-results/phone-desk/details-390.png' });

  const player = dialog.getByTestId('waveform-player');
  await player.getByRole('button', { name: 'Play' }).click();
  await expect(player.getByRole('button', { name: 'Pause' })).toBeVisible();
  const audio = player.locator('audio');
  await expect.poll(async () => audio.evaluate((el: HTMLAudioElement) => !el.paused && el.currentTime > 0.2), { timeout: 15_000 }).toBe(true);
  await page.screenshot({ path: 'test-results/phone-desk/details-playing-390.png' });
  await player.getByRole('button', { name: 'Pause' }).click();

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // On a laptop the same details stay a centred dialog.
  await page.setViewportSize(LAPTOP);
  await page.getByRole('button', { name: `View details of ${songTitle}` }).click();
  await expect(dialog).toBeVisible();
  // Polled: the dialog slides and zooms in, and a box read mid-animation is off to the side.
  await expect
    .poll(async () => {
      const box = (await dialog.boundingBox())!;
      return box.x > 0 && Math.abs(box.x + box.width / 2 - LAPTOP.width / 2) < 2;
    })
    .toBe(true);
  await page.screenshot({ path: 'test-results/phone-desk/details-1280.png' });
  await artist.dispose();
  await other.dispose();
});

test('every admin page fits a 360 px phone, and the desk has no serious accessibility violation there', async ({ page, baseURL }) => {
  // A new account's confirmation email gives the outbox a row whose time must not wrap.
  const artist = await newArtist(baseURL!, 'Outbox Check');
  await signInAsAdmin(page);
  await page.setViewportSize(NARROW_PHONE);
  for (const path of ['/admin', '/admin/users', '/admin/outbox', '/admin/channel', '/messages']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const name = path.slice(1).replace(/\//g, '-');
    await page.screenshot({ path: `test-results/phone-desk/${name}-360.png`, fullPage: true });
    const { scrollWidth, clientWidth } = await pageScrollsSideways(page);
    expect(scrollWidth, `${path} is ${scrollWidth} px wide on a ${clientWidth} px screen`).toBeLessThanOrEqual(clientWidth);
  }

  // Outbox times stay on one line on a phone (issue 23: "5:04:30 P / M").
  await page.goto('/admin/outbox');
  const time = page.getByTestId('outbox-time').first();
  await expect(time).toBeVisible();
  expect(await time.evaluate((el) => el.getClientRects().length)).toBe(1);
  await artist.dispose();

  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectAccessible(page, '/admin at 360 px');
});

test('an admin who signs in lands on the desk, with Messages and its unread count in the team’s navigation', async ({ page, baseURL }) => {
  const admin = await playwrightRequest.newContext({ baseURL });
  expect((await admin.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  const { id: adminId } = (await (await admin.get('/api/user')).json()) as { id: string };
  const artist = await newArtist(baseURL!, 'Harbor Lights');
  const sent = await artist.post('/api/messages', { data: { toUserId: adminId, content: 'Did you get a chance to hear the demo?' } });
  expect(sent.status(), await sent.text()).toBe(201);
  const { count: unread } = (await (await admin.get('/api/messages/unread-count')).json()) as { count: number };
  expect(unread).toBeGreaterThan(0);

  await page.setViewportSize(PHONE);
  await page.goto('/auth');
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();

  // At least the count read above: a spec running beside this one may message the admin too.
  // Named "Messages N unread": the name holds the words that show, "Messages N" (issue 43 item 8).
  const messages = page.getByRole('link', { name: /^Messages \d+\+? unread$/ });
  const badge = messages.getByTestId('unread-badge');
  await expect(badge).toHaveText(/^\d+\+? unread$/);
  const shown = Number(/\d+/.exec((await badge.textContent())!)![0]);
  expect(shown).toBeGreaterThanOrEqual(Math.min(unread, 99));
  await page.screenshot({ path: 'test-results/phone-desk/admin-nav-390.png' });
  await messages.click();
  await expect(page).toHaveURL(/\/messages$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(page.getByText(MESSAGES_SUBTITLES.admin)).toBeVisible();
  await expect(page.getByText(MESSAGES_SUBTITLES.user)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Back to Admin' })).toBeVisible();
  await page.setViewportSize(LAPTOP);
  await page.screenshot({ path: 'test-results/phone-desk/messages-admin-1280.png' });
  await admin.dispose();
  await artist.dispose();
});

test('the Users page counts each artist’s submissions, and the last admin cannot be demoted', async ({ page, baseURL }) => {
  const artistName = `Tally ${Date.now().toString(36)}`;
  const artist = await newArtist(baseURL!, artistName);
  for (let i = 1; i <= 5; i++) await submit(artist, artistName, `${artistName} Track ${i}`);
  await signInAsAdmin(page);

  await page.goto('/admin/users');
  const search = page.getByRole('searchbox', { name: 'Search users' });
  await search.fill(artistName);
  const users = page.getByRole('list', { name: 'Users' });
  await expect(users.getByRole('listitem')).toHaveCount(1);
  await expect(users).toContainText('5 submissions');

  await search.fill(E2E_ADMIN.email);
  const remove = page.getByRole('button', { name: `Remove admin rights from ${E2E_ADMIN.email}` });
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveAccessibleDescription('The last admin cannot be demoted');
  await page.screenshot({ path: 'test-results/phone-desk/users-last-admin-1280.png' });
  await artist.dispose();
});

test('on a phone the details sheet jumps to Rights, Production and Publishing, and says the artist’s AI answer (issue 43 item 9)', async ({ page, baseURL }) => {
  const artist = await newArtist(baseURL!, 'Lumen Drift');
  const id = await submit(artist, 'Lumen Drift', `Jumps ${Date.now()}`, { aiUsage: true });
  const admin = await playwrightRequest.newContext({ baseURL });
  expect((await admin.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  expect((await admin.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  await page.setViewportSize(PHONE);
  expect((await page.request.post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
  await page.goto(`/admin?submission=${id}`);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('desk-ai-usage')).toContainText('Yes: the artist says AI tools made part of');
  const jumps = dialog.getByRole('navigation', { name: 'Jump to' });
  await expect(jumps.getByRole('button')).toHaveText(['Rights', 'Production', 'Publishing']);
  // The sheet is long: each jump brings its section under the jump bar, which stays on screen.
  const inView = async (id: string) => {
    const [target, bar] = await Promise.all([dialog.locator(`#${id}`).boundingBox(), jumps.boundingBox()]);
    return target !== null && bar !== null && target.y >= bar.y + bar.height - 1 && target.y < PHONE.height / 2;
  };
  for (const [name, target] of [
    ['Publishing', 'desk-publishing'],
    ['Rights', 'desk-rights'],
    ['Production', 'desk-production'],
  ] as const) {
    await jumps.getByRole('button', { name }).click();
    await expect.poll(() => inView(target), { message: `${name} under the bar` }).toBe(true);
    await expect(jumps).toBeInViewport();
  }
  await page.screenshot({ path: 'test-results/phone-desk/details-jumps-390.png' });
  await expectAccessible(page, 'the details sheet with its jumps (390)');
  await page.setViewportSize(LAPTOP);
  await expect(jumps).toBeHidden();
  await artist.dispose();
  await admin.dispose();
});
