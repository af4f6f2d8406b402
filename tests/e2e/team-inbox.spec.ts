import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, PASSWORD, TINY_PNG, adminApi, createSubmission, expectAccessible, registerArtist, shoot, signInAsAdmin, uniqueEmail } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';

/**
 * CONTRACT §18 "One inbox for the label team": an artist writes to the team, not to a person;
 * any admin answers; one read state for the team; files travel both ways and are seen on the
 * other side.
 */
const SHOTS = process.env.TEAM_INBOX_SHOTS;

// The first journey makes a second admin. On the shared server that would outlive it and change
// what other specs see of the team (phone-desk checks that the last admin cannot be demoted), so
// this spec runs on a server of its own, with the same first admin.
let server: OwnServer;
test.use({ baseURL: ownServerBase('team-inbox') });
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startOwnServer('team-inbox', { ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password });
});
test.afterAll(async () => {
  await server?.stop();
});

const chatMessage = (page: Page | Locator, text: string) => page.getByTestId('chat-message').filter({ hasText: text });

async function artistContext(browser: Browser, artistName: string) {
  const context = await browser.newContext();
  const { id } = await registerArtist(context.request, { prefix: 'inbox', profile: { artistName } });
  return { context, id };
}

/** A second member of the team: registered, made an admin by the first, then signed in. */
async function secondAdmin(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  const email = uniqueEmail('team2');
  const res = await context.request.post('/api/register', { data: { firstName: 'Omar', lastName: 'Desk', email, password: PASSWORD } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const first = await adminApi(baseURL);
  expect((await first.patch(`/api/admin/users/${id}`, { data: { role: 'admin' } })).ok()).toBe(true);
  await first.dispose();
  expect((await context.request.post('/api/login', { data: { email, password: PASSWORD } })).ok()).toBe(true);
  return context;
}

test('a second admin answers a conversation the first never opened; the team reads it once', async ({ browser, baseURL }) => {
  const artistName = `Kai Lumen ${Date.now().toString(36)}`;
  const artist = await artistContext(browser, artistName);
  const artistPage = await artist.context.newPage();
  await artistPage.goto('/messages');
  await artistPage.getByRole('button', { name: 'Message the label team' }).click();
  await expect(artistPage.getByTestId('chat-title')).toHaveText('The label team');
  const input = artistPage.getByRole('textbox', { name: 'Message' });
  await input.fill('Is anyone on the team there?');
  await input.press('Enter');
  await expect(chatMessage(artistPage, 'Is anyone on the team there?')).toBeVisible();

  // Omar, who joined the team after, sees it unread and answers.
  const omar = await secondAdmin(browser, baseURL!);
  const omarPage = await omar.newPage();
  await omarPage.goto('/messages');
  const inOmarList = omarPage.getByTestId('conversation').filter({ hasText: artistName });
  await expect(inOmarList.getByTestId('conversation-unread')).toContainText('1');
  await expect(inOmarList.getByTestId('conversation-assignee')).toHaveText('Unassigned');
  await inOmarList.click();
  await expect(chatMessage(omarPage, 'Is anyone on the team there?')).toBeVisible();
  const omarInput = omarPage.getByRole('textbox', { name: 'Message' });
  await omarInput.fill('Omar here, we have it.');
  await omarInput.press('Enter');

  // The artist gets the answer live, signed by Omar.
  const answer = chatMessage(artistPage, 'Omar here, we have it.');
  await expect(answer).toBeVisible();
  await expect(answer.getByTestId('chat-signature')).toHaveText('Omar Desk · Label team');

  // The first admin never opened it: it is read for the team, and Omar's reply is in the thread, signed.
  const lena = await browser.newContext();
  await signInAsAdmin(lena.request);
  const lenaPage = await lena.newPage();
  await lenaPage.goto('/messages');
  const inLenaList = lenaPage.getByTestId('conversation').filter({ hasText: artistName });
  await expect(inLenaList).toContainText('Omar here, we have it.');
  await expect(inLenaList.getByTestId('conversation-unread')).toHaveCount(0);
  await inLenaList.click();
  await expect(chatMessage(lenaPage, 'Omar here, we have it.').getByTestId('chat-signature')).toHaveText('Omar Desk · Label team');
  if (SHOTS) await shoot(lenaPage, SHOTS, 'team-thread');
  if (SHOTS) await shoot(artistPage, SHOTS, 'artist-thread');

  await Promise.all([lena.close(), omar.close(), artist.context.close()]);
});

test('an attachment is seen on the other side, both ways', async ({ browser }) => {
  const artistName = `Ivo Strand ${Date.now().toString(36)}`;
  const artist = await artistContext(browser, artistName);
  const artistPage = await artist.context.newPage();
  await artistPage.goto('/messages?with=team');
  await artistPage.getByTestId('attachment-input').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: TINY_PNG });
  await expect(artistPage.getByTestId('pending-attachment')).toContainText('cover.png');
  await expect(artistPage.getByTestId('pending-attachment').getByLabel('Uploading')).toHaveCount(0);
  const input = artistPage.getByRole('textbox', { name: 'Message' });
  await input.fill('Here is the cover');
  await input.press('Enter');
  await expect(chatMessage(artistPage, 'Here is the cover').getByTestId('attachment-image')).toBeVisible();

  const admin = await browser.newContext();
  await signInAsAdmin(admin.request);
  const adminPage = await admin.newPage();
  await adminPage.goto(`/messages?with=${artist.id}`);
  const image = chatMessage(adminPage, 'Here is the cover').getByRole('img', { name: 'cover.png' });
  await expect(image).toBeVisible();
  // Loaded: the team may fetch the artist's file.
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // The team answers with a PDF; the artist sees it as a download it may fetch.
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
  await adminPage.getByTestId('attachment-input').setInputFiles({ name: 'brief.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(adminPage.getByTestId('pending-attachment').getByLabel('Uploading')).toHaveCount(0);
  await adminPage.getByRole('textbox', { name: 'Message' }).fill('The brief for the video');
  await adminPage.getByRole('button', { name: 'Send message' }).click();
  const download = chatMessage(artistPage, 'The brief for the video').getByTestId('attachment-download');
  await expect(download).toContainText('brief.pdf');
  const href = await download.getAttribute('href');
  const fetched = await artist.context.request.get(href!);
  expect(fetched.status()).toBe(200);
  expect(fetched.headers()['content-type']).toBe('application/pdf');
  // Nobody else: another artist is refused.
  const stranger = await browser.newContext();
  await registerArtist(stranger.request, { prefix: 'stranger' });
  expect((await stranger.request.get(href!)).status()).toBe(404);
  if (SHOTS) await shoot(artistPage, SHOTS, 'artist-attachments');

  await Promise.all([admin.close(), stranger.close(), artist.context.close()]);
});

test('a submission links to its conversation on both sides, and the thread shows it', async ({ browser }) => {
  const songTitle = `Glass Harbour ${Date.now().toString(36)}`;
  const artist = await artistContext(browser, 'Runa Vale');
  const submissionId = await createSubmission(artist.context.request, { songTitle });
  const artistPage = await artist.context.newPage();

  // Contact Support after a failed payment opens the team conversation about that order.
  await artistPage.goto(`/payment-failure?submission=${submissionId}`);
  await expect(artistPage.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', `/messages?with=team&submission=${submissionId}`);

  // From the artist's submission details to the conversation, about the submission.
  await artistPage.goto(`/dashboard?submission=${submissionId}`);
  await artistPage.getByRole('dialog').getByRole('link', { name: 'Message the label team' }).click();
  await expect(artistPage).toHaveURL(new RegExp(`/messages\\?with=team&submission=${submissionId}$`));
  await expect(artistPage.getByTestId('composer-about')).toContainText(songTitle);
  const input = artistPage.getByRole('textbox', { name: 'Message' });
  await input.fill('A question about this one');
  await input.press('Enter');
  await expect(chatMessage(artistPage, 'A question about this one').getByTestId('message-submission')).toContainText(songTitle);

  // The desk's details link to the same conversation, where the message shows the submission and its status.
  const admin = await browser.newContext();
  await signInAsAdmin(admin.request);
  const adminPage = await admin.newPage();
  await adminPage.goto(`/admin?submission=${submissionId}`);
  const details = adminPage.getByRole('dialog');
  await expect(details.getByTestId('desk-conversation-link')).toBeVisible();
  if (SHOTS) await shoot(adminPage, SHOTS, 'desk-details');
  await details.getByTestId('desk-conversation-link').click();
  await expect(adminPage).toHaveURL(new RegExp(`/messages\\?with=${artist.id}&submission=${submissionId}$`));
  const about = chatMessage(adminPage, 'A question about this one').getByTestId('message-submission');
  await expect(about).toContainText(songTitle);
  await expect(about).toContainText('Pending');
  if (SHOTS) {
    await adminPage.goto('/messages');
    await shoot(adminPage, SHOTS, 'team-list');
  }

  await Promise.all([admin.close(), artist.context.close()]);
});

/** Whether the page scrolls sideways anywhere: the document, or the open dialog. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => {
    const wide = (el: Element | null) => !!el && el.scrollWidth > el.clientWidth + 1;
    return wide(document.documentElement) || wide(document.querySelector('[role="dialog"]'));
  });

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`the desk's details show the conversation and answer it (${viewport.width}×${viewport.height})`, async ({ browser }) => {
    const stamp = Date.now().toString(36);
    const songTitle = `Salt Lantern ${stamp}`;
    const artist = await artistContext(browser, `Noor Fjell ${stamp}`);
    const submissionId = await createSubmission(artist.context.request, { songTitle });
    const artistPage = await artist.context.newPage();
    await artistPage.goto(`/messages?with=team&submission=${submissionId}`);
    await artistPage.getByTestId('attachment-input').setInputFiles({ name: 'sketch.png', mimeType: 'image/png', buffer: TINY_PNG });
    await expect(artistPage.getByTestId('pending-attachment').getByLabel('Uploading')).toHaveCount(0);
    const input = artistPage.getByRole('textbox', { name: 'Message' });
    await input.fill(`Is the chorus too long? ${stamp}`);
    await input.press('Enter');
    await expect(chatMessage(artistPage, `Is the chorus too long? ${stamp}`)).toBeVisible();

    const admin = await browser.newContext({ viewport });
    await signInAsAdmin(admin.request);
    const adminPage = await admin.newPage();
    await adminPage.goto(`/admin?submission=${submissionId}`);
    const panel = adminPage.getByRole('dialog').getByTestId('desk-conversation');
    const asked = chatMessage(panel, `Is the chorus too long? ${stamp}`);
    await asked.scrollIntoViewIfNeeded();
    await expect(asked).toBeVisible();
    await expect(asked.getByTestId('message-submission')).toContainText(songTitle);
    await expect(asked.getByRole('img', { name: 'sketch.png' })).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Open in Messages' })).toHaveAttribute('href', `/messages?with=${artist.id}&submission=${submissionId}`);

    // One read rule: the desk reads the thread as GET /api/messages/{artistId} does, which leaves it unread.
    const listed = async () => {
      const res = await admin.request.get('/api/messages/conversations');
      expect(res.status()).toBe(200);
      const page = (await res.json()) as { conversations: { user: { id: string }; unreadCount: number }[] };
      return (page.conversations.find((c) => c.user.id === artist.id)?.unreadCount ?? 0) > 0;
    };
    expect(await listed()).toBe(true);
    expect(await scrollsSideways(adminPage)).toBe(false);
    await expectAccessible(adminPage, `desk conversation (${viewport.width})`);

    // The team answers from the desk: the artist sees it live, signed; answering reads it for the team.
    const reply = panel.getByRole('textbox', { name: 'Message' });
    await reply.scrollIntoViewIfNeeded();
    await reply.fill(`Trim it by four bars. ${stamp}`);
    await panel.getByRole('button', { name: 'Send message' }).click();
    await expect(chatMessage(panel, `Trim it by four bars. ${stamp}`)).toBeVisible();
    const answer = chatMessage(artistPage, `Trim it by four bars. ${stamp}`);
    await expect(answer).toBeVisible();
    await expect(answer.getByTestId('chat-signature')).toContainText('· Label team');
    await expect(answer.getByTestId('message-submission')).toContainText(songTitle);
    await expect.poll(listed).toBe(false);

    // The artist writes again: the desk shows it without reopening.
    await input.fill(`Done, new mix up. ${stamp}`);
    await input.press('Enter');
    await expect(chatMessage(panel, `Done, new mix up. ${stamp}`)).toBeVisible();
    expect(await scrollsSideways(adminPage)).toBe(false);
    await panel.scrollIntoViewIfNeeded();
    await adminPage.screenshot({ path: `/tmp/h25c-desk-conversation-${viewport.width}.png` });
    if (SHOTS) await adminPage.screenshot({ path: `${SHOTS}/desk-conversation-${viewport.width}.png`, fullPage: true });

    await Promise.all([admin.close(), artist.context.close()]);
  });
}
