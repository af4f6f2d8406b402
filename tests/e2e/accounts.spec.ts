import { ACCOUNT_TEXTS } from '../../src/shared/auth-texts';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startTestSmtpServer, type TestSmtpServer } from '../../src/server/test/smtp-test-server';
import { PASSWORD, shoot as shootAt, uniqueEmail } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';

/**
 * Accounts people can recover and own (CONTRACT §11), in the browser: reset by email, read from
 * a real SMTP server, and deletion. This spec runs a server of its own, with SMTP_URL pointing at
 * the test SMTP server, on its own data directory.
 */
const BASE = ownServerBase('accounts');
const ROOT = path.resolve(import.meta.dirname, '../..');
const SHOTS = path.join(ROOT, 'test-results/accounts-screens');
const PHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let smtp: TestSmtpServer;
let server: OwnServer;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startTestSmtpServer();
  mkdirSync(SHOTS, { recursive: true });
  server = await startOwnServer('accounts', {
    SMTP_URL: smtp.url,
    ADMIN_EMAIL: 'accounts-admin@example.com',
    ADMIN_PASSWORD: 'accounts-admin-pass-1',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const newEmail = () => uniqueEmail('artist');

/** Registers through the API (the page's context gets the session) with a complete profile. */
async function register(page: Page, email: string): Promise<void> {
  const res = await page.request.post('/api/register', { data: { firstName: 'Mara', lastName: 'Quill', email, password: PASSWORD } });
  expect(res.status()).toBe(201);
  const profile = await page.request.put('/api/profile', {
    data: { artistName: 'Mara Quill', country: 'Iceland', instagramHandle: '@maraquill', spotifyHandle: 'open.spotify.com/artist/mara', bandcampHandle: 'maraquill.bandcamp.com' },
  });
  expect(profile.status()).toBe(200);
}

/** Another device signed in to the same account, as its own browser context. */
async function signInElsewhere(browser: Browser, email: string, password: string, userAgent = PHONE_UA) {
  const context = await browser.newContext({ baseURL: BASE, userAgent });
  const res = await context.request.post('/api/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  return context;
}

const shoot = (page: Page, name: string) => shootAt(page, SHOTS, name);

test('a forgotten password is reset through the emailed link, and every old session ends', async ({ page, browser }) => {
  const email = newEmail();
  await register(page, email);
  const phone = await signInElsewhere(browser, email, PASSWORD);
  await page.context().clearCookies();

  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await shoot(page, 'sign-in');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset your password' });
  await expect(dialog.getByLabel('Email')).toHaveValue(email);
  await shoot(page, 'forgot-password');
  await dialog.getByRole('button', { name: 'Send reset link' }).click();
  await expect(dialog.getByRole('status')).toContainText('If an account exists for that address');
  await page.keyboard.press('Escape');

  const mail = await smtp.waitFor((m) => m.to.includes(email) && m.mail.subject?.startsWith('Choose a new password') === true, 30_000);
  const link = /http:\/\/localhost:\d+\/reset-password\?token=[\w-]+/.exec(mail.mail.text ?? '')![0];
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('brand-new-wave-7');
  await page.getByLabel('Confirm new password').fill('brand-new-wave-8');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel('Confirm new password').fill('brand-new-wave-7');
  await shoot(page, 'reset-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toHaveText('Your password has been changed. Please sign in with the new one.');

  // The phone's session ended with the reset.
  expect((await phone.request.get('/api/user')).status()).toBe(401);
  await phone.close();

  // The link works once, and says so as it opens: no form to type a password into first (issue 43).
  await page.goto(link);
  await expect(page.getByTestId('reset-link-spent')).toContainText(ACCOUNT_TEXTS.resetLinkSpentTitle);
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  await shoot(page, 'reset-link-spent');
  await page.getByRole('button', { name: ACCOUNT_TEXTS.resetLinkNew }).click();
  await expect(page.getByRole('dialog', { name: 'Reset your password' }).getByLabel('Email')).toBeVisible();

  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('brand-new-wave-7');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the settings screen: profile, sessions with sign-out of another device', async ({ page, browser }) => {
  const email = newEmail();
  await register(page, email);
  const phone = await signInElsewhere(browser, email, PASSWORD);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Artist name')).toHaveValue('Mara Quill');
  const sessions = page.getByRole('list', { name: 'Signed-in sessions' });
  await expect(sessions.getByTestId('session-row')).toHaveCount(2);
  await expect(sessions.getByText('This device')).toBeVisible();
  await expect(sessions.getByText('Safari on iOS')).toBeVisible();
  await shoot(page, 'settings');

  await sessions.getByRole('button', { name: /^Sign out Safari on iOS/ }).click();
  await expect(sessions.getByTestId('session-row')).toHaveCount(1);
  expect((await phone.request.get('/api/user')).status()).toBe(401);
  await phone.close();
});

test('deleting the account explains what goes and stays, needs the password, and signs out for good', async ({ page }) => {
  const email = newEmail();
  await register(page, email);
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Delete my account' }).click();
  await expect(page.getByRole('heading', { name: 'Delete your account' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'What we delete' })).toContainText('Every submission that has not been approved yet');
  await expect(page.getByRole('list', { name: 'What stays' })).toContainText('stay with the label under the licence');
  await shoot(page, 'delete-account');

  // Confirmed in the product's own dialog; with nothing paid, it names no refund.
  const confirmDeletion = async () => {
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).not.toContainText('refunded');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
  };
  await page.getByLabel('Password', { exact: true }).fill('not-my-password');
  await confirmDeletion();
  await expect(page.getByText('That password is not correct', { exact: true }).first()).toBeVisible();
  expect((await page.request.get('/api/user')).status()).toBe(200);

  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await confirmDeletion();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('Invalid email or password');
});

test('an admin finds a user on the team page and makes them an admin, then not', async ({ page }) => {
  const email = newEmail();
  await register(page, email);
  await page.context().clearCookies();
  const login = await page.request.post('/api/login', { data: { email: 'accounts-admin@example.com', password: 'accounts-admin-pass-1' } });
  expect(login.status()).toBe(200);
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await shoot(page, 'team');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
  const users = page.getByRole('list', { name: 'Users' });
  await expect(users.getByRole('listitem')).toHaveCount(1);
  await users.getByRole('button', { name: `Make admin: ${email}` }).click();
  await expect(users.getByText('Admin', { exact: true })).toBeVisible();
  await users.getByRole('button', { name: `Remove admin rights from ${email}` }).click();
  await expect(users.getByText('Artist', { exact: true })).toBeVisible();
});
