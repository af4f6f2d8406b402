import { expect, test, type Page } from '@playwright/test';
import { createSubmission, E2E_ADMIN, registerArtist, shoot as shootAt } from './fixtures';

/**
 * The screens issue 10 touched without meaning to change them (one back link and page heading,
 * one label/value row, the message composer shared by the chat and the admin's dialog): each
 * still shows what it showed, the back links lead where they say, and a screenshot of each at
 * 1280 and 390 px lands in test-results/screens/ to be looked at.
 */

const signUpArtist = (page: Page) => registerArtist(page, { prefix: 'health' });

const submit = (page: Page, pricingTier: 'free' | 'premium', songTitle = 'Night Drive') =>
  createSubmission(page.request, { musicUrl: 'https://example.com/night-drive', releaseDateOption: 'asap', artistName: 'Nora Vex', songTitle, pricingTier });

const shoot = (page: Page, name: string) => shootAt(page, 'test-results/screens', name);

test('artist pages: headings, back links, details rows', async ({ page }) => {
  await signUpArtist(page);
  await submit(page, 'free');
  const paid = await submit(page, 'premium');

  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await shoot(page, 'settings');
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(page.getByText('Communicate with the label team about your submissions.')).toBeVisible();
  await shoot(page, 'messages');

  await page.goto(`/checkout/${paid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await shoot(page, 'checkout');

  await page.goto('/dashboard');
  // The first-visit profile prompt opens by itself; close it.
  await page.getByRole('dialog', { name: 'Complete your artist profile' }).getByRole('button', { name: 'Later' }).click();
  await page.getByRole('button', { name: 'View Night Drive' }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('As soon as possible')).toBeVisible();
  await shoot(page, 'dashboard-details');
});

test('admin: details dialog rows and the message dialog', async ({ page, browser }) => {
  const artist = await browser.newPage();
  await signUpArtist(artist);
  const songTitle = `Glass Harbour ${Date.now()}`;
  await submit(artist, 'free', songTitle);
  await artist.close();

  const login = await page.request.post('/api/login', { data: E2E_ADMIN });
  expect(login.ok()).toBe(true);
  await page.goto('/admin');
  await page.getByRole('searchbox', { name: 'Search submissions' }).fill(songTitle);
  await page.getByRole('button', { name: `View details of ${songTitle}` }).first().click();
  const dialog = page.getByRole('dialog', { name: `Submission Details - ${songTitle}` });
  await expect(dialog.getByText('Song Title', { exact: true })).toBeVisible();
  await shoot(page, 'admin-details');
  await dialog.getByRole('button', { name: /Message Mara Quill/ }).click();
  await expect(page.getByRole('heading', { name: /^Send Message to / })).toBeVisible();
  await page.getByRole('textbox', { name: 'Message' }).last().fill('Lovely chorus.');
  await shoot(page, 'admin-message');
  await page.getByRole('button', { name: 'Send Message' }).click();
  // The details dialog is modal, so the toast region behind it is hidden from the accessibility tree.
  await expect(page.getByText('Message Sent', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Your message to Mara Quill has been sent.', { exact: true })).toBeVisible();

  await page.goto('/admin/outbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  await shoot(page, 'outbox');
  await page.getByRole('link', { name: 'Back to Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
});
