import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { NO_CONVERSATIONS_HINT } from '../../src/client/features/messages/messages-texts';
import { registerArtist, signInAsAdmin, toastText } from './fixtures';

/**
 * Live messaging between the label and an artist (SPEC §2 "Messages", CONTRACT §7): two browser
 * contexts, the admin and the artist, each with its own session and WebSocket.
 */

/** ensureAdminAccount names the admin "Label Admin"; the notice uses the first name (no artist name). */
const ADMIN_NOTICE = 'Message from Label';

async function newArtist(browser: Browser, artistName: string): Promise<{ context: BrowserContext; id: string }> {
  const context = await browser.newContext();
  const { id } = await registerArtist(context.request, { prefix: 'msg', profile: { artistName } });
  return { context, id };
}

async function adminContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await signInAsAdmin(context.request);
  return context;
}

const chatMessage = (page: Page, text: string) => page.getByTestId('chat-message').filter({ hasText: text });

test('admin and artist exchange messages live; badge and unread counts follow', async ({ browser }) => {
  const admin = await adminContext(browser);
  const artistName = `Nora Vex ${Date.now().toString(36)}`;
  const artist = await newArtist(browser, artistName);
  const adminPage = await admin.newPage();
  const artistPage = await artist.context.newPage();

  // The artist waits on the dashboard with nothing unread.
  await artistPage.goto('/dashboard');
  await expect(artistPage.getByRole('link', { name: 'Messages' })).toBeVisible();
  await expect(artistPage.getByTestId('unread-badge')).toHaveCount(0);

  // The admin opens a conversation with the artist and sends with Enter.
  await adminPage.goto(`/messages?with=${artist.id}`);
  await expect(adminPage.getByTestId('chat-title')).toHaveText(artistName);
  await expect(adminPage.getByText('No messages yet')).toBeVisible();
  const adminInput = adminPage.getByRole('textbox', { name: 'Message' });
  await adminInput.fill('We love the new track!');
  await adminInput.press('Enter');
  await expect(toastText(adminPage, 'Message Sent')).toBeVisible();
  await expect(adminInput).toHaveValue('');
  await expect(chatMessage(adminPage, 'We love the new track!')).toBeVisible();

  // Without reloading, the artist sees the notice and the badge go up.
  await expect(toastText(artistPage, 'New Message')).toBeVisible();
  await expect(toastText(artistPage, ADMIN_NOTICE)).toBeVisible();
  await expect(artistPage.getByTestId('unread-badge')).toContainText('1');

  // A second message raises the count again, still live.
  await adminInput.fill('Could you send the stems?');
  await adminPage.getByRole('button', { name: 'Send message' }).click();
  await expect(artistPage.getByTestId('unread-badge')).toContainText('2');

  // The artist opens Messages: one conversation, latest message as preview, two unread.
  // The notice sits over the header's corner; the artist dismisses it first.
  await artistPage.getByRole('region', { name: /Notifications/ }).getByRole('button', { name: 'Close' }).click();
  await artistPage.getByRole('link', { name: /Messages/ }).click();
  await expect(artistPage).toHaveURL(/\/messages$/);
  await expect(artistPage.getByText('Select a conversation', { exact: true })).toBeVisible();
  const conversation = artistPage.getByTestId('conversation');
  await expect(conversation).toHaveCount(1);
  // The artist's conversation is with the label team, not one admin (CONTRACT §18).
  await expect(conversation).toContainText('The label team');
  await expect(conversation).toContainText('Could you send the stems?');
  await expect(conversation.getByTestId('conversation-unread')).toContainText('2');

  // Reading it clears the count.
  await conversation.click();
  await expect(chatMessage(artistPage, 'We love the new track!')).toBeVisible();
  await expect(chatMessage(artistPage, 'Could you send the stems?')).toBeVisible();
  await expect(conversation.getByTestId('conversation-unread')).toHaveCount(0);

  // Blank content is not sent; Shift+Enter makes a new line; Enter sends.
  const artistInput = artistPage.getByRole('textbox', { name: 'Message' });
  const sendButton = artistPage.getByRole('button', { name: 'Send message' });
  await artistInput.fill('   ');
  await expect(sendButton).toBeDisabled();
  await artistInput.fill('Sure, sending them today.');
  await artistInput.press('Shift+Enter');
  await artistInput.pressSequentially('Thanks!');
  await expect(artistInput).toHaveValue('Sure, sending them today.\nThanks!');
  await artistInput.press('Enter');
  await expect(toastText(artistPage, 'Message Sent')).toBeVisible();
  await expect(artistInput).toHaveValue('');

  // The admin, looking at this thread, sees the answer appear live (and gets no notice for it).
  await expect(chatMessage(adminPage, 'Sure, sending them today.')).toBeVisible();
  await expect(chatMessage(adminPage, 'Sure, sending them today.')).toContainText('Thanks!');
  const withArtist = adminPage.getByTestId('conversation').filter({ hasText: artistName });
  await expect(withArtist).toContainText('Sure, sending them today.');
  await expect(withArtist.getByTestId('conversation-unread')).toHaveCount(0);

  // Back on the dashboard the artist has nothing unread.
  await artistPage.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(artistPage).toHaveURL(/\/dashboard$/);
  await expect(artistPage.getByTestId('unread-badge')).toHaveCount(0);

  await admin.close();
  await artist.context.close();
});

test('an artist starts a conversation with the label team', async ({ browser }) => {
  const artistName = `First Contact ${Date.now().toString(36)}`;
  const artist = await newArtist(browser, artistName);
  const page = await artist.context.newPage();
  await page.goto('/messages');
  await expect(page.getByText('No conversations yet', { exact: true })).toBeVisible();
  // The line under it leads to the button below it, not to waiting for the team (issue 43).
  await expect(page.getByText(NO_CONVERSATIONS_HINT.user, { exact: true })).toBeVisible();

  // No one to pick: the message goes to the team (CONTRACT §18).
  await page.getByRole('button', { name: 'Message the label team' }).click();
  await expect(page.getByTestId('chat-title')).toHaveText('The label team');
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('Hello label team!');
  await input.press('Enter');
  await expect(chatMessage(page, 'Hello label team!')).toBeVisible();
  await expect(page.getByTestId('conversation')).toContainText('You: Hello label team!');

  // The admin sees it as an unread conversation from the artist.
  const admin = await adminContext(browser);
  const adminPage = await admin.newPage();
  await adminPage.goto('/messages');
  const fromArtist = adminPage.getByTestId('conversation').filter({ hasText: artistName });
  await expect(fromArtist).toContainText('Hello label team!');
  await expect(fromArtist.getByTestId('conversation-unread')).toContainText('1');

  await admin.close();
  await artist.context.close();
});
