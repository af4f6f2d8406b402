import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { PART_FAILED_TEXTS } from '../../src/shared/field-texts';
import { animationsEnded, createSubmission, PASSWORD, registerArtist, uniqueEmail } from './fixtures';

/**
 * What surrounds every page of the artist's side (issue 43's paper cuts): one header on each page,
 * kept above a page that cannot load, and toasts that cover neither the header, a dialog's title
 * and buttons, nor the first stat card. Screens are photographed into SHOTS to be looked at.
 */
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/artist-chrome');
mkdirSync(SHOTS, { recursive: true });
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

async function boxesOverlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

/** The toast on screen; by its place, not its role: an open dialog hides the rest of the page from the accessibility tree. */
const toastOf = (page: Page) => page.locator('.toast-viewport > li').first();

/** The header's three links of every artist page, by their accessible names (icons only on a phone). */
async function expectArtistHeader(page: Page, where: string): Promise<void> {
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: 'How it Works' }), where).toBeVisible();
  await expect(header.getByRole('link', { name: 'Settings' }), where).toBeVisible();
  await expect(header.getByRole('button', { name: 'Logout' }), where).toBeVisible();
}

test('every page of the artist’s side carries the same header, on a laptop and on a phone', async ({ page }) => {
  await registerArtist(page, { prefix: 'chrome', profile: { artistName: 'Velvet Tides' } });
  const paid = await createSubmission(page.request, { songTitle: 'Harbor Lights', pricingTier: 'premium' });
  const pages = ['/dashboard', '/submit', `/checkout/${paid}`, '/messages', '/settings', '/settings/billing', '/settings/delete-account'];
  for (const size of [LAPTOP, PHONE]) {
    await page.setViewportSize(size);
    for (const address of pages) {
      await page.goto(address);
      await expect(page.getByRole('main')).toBeVisible();
      await expectArtistHeader(page, `${address} at ${size.width}`);
    }
  }
});

test('a page that cannot load offline keeps the header, with the message in the page', async ({ page }) => {
  await registerArtist(page, { prefix: 'chrome', profile: { artistName: 'Velvet Tides' } });
  await page.goto('/dashboard');
  await expectArtistHeader(page, '/dashboard');

  await page.context().setOffline(true);
  await page.getByRole('banner').getByRole('link', { name: 'Settings' }).click();
  const failed = page.getByRole('main').getByTestId('part-failed');
  await expect(failed).toContainText(PART_FAILED_TEXTS.loadTitle);
  await expectArtistHeader(page, 'the failed /settings');
  for (const size of [LAPTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SHOTS}/offline-page-${size.width}.png` });
  }

  // Back online the page loads by itself, under the same header.
  await page.context().setOffline(false);
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expectArtistHeader(page, '/settings');
  await expect(failed).toHaveCount(0);
});

test('the register toast leaves the profile dialog’s title and buttons uncovered on a phone', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await page.getByLabel('First name').fill('Mara');
  await page.getByLabel('Last name').fill('Quill');
  await page.getByLabel('Email').fill(uniqueEmail('chrome'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();

  const dialog = page.getByRole('dialog', { name: 'Complete your artist profile' });
  await expect(dialog).toBeVisible();
  const toast = toastOf(page);
  await expect(toast).toContainText('Account created!');
  // Where they settle, not where their entrances start.
  await animationsEnded(page);
  for (const covered of [dialog.getByRole('heading', { name: 'Complete your artist profile' }), dialog.getByRole('button', { name: 'Save profile' }), dialog.getByRole('button', { name: 'Later' })]) {
    expect(await boxesOverlap(toast, covered), `${String(covered)}: ${JSON.stringify([await toast.boundingBox(), await covered.boundingBox()])}`).toBe(false);
  }
  await page.screenshot({ path: `${SHOTS}/register-toast-390.png` });
});

test('a toast covers neither the header on a phone nor the first stat card on a laptop', async ({ page, browser }) => {
  const { email } = await registerArtist(page, { prefix: 'chrome', profile: { artistName: 'Velvet Tides' } });
  for (const n of [1, 2, 3]) await createSubmission(page.request, { songTitle: `Night Drive ${n}` });
  for (const size of [PHONE, LAPTOP]) {
    const context = await browser.newContext({ viewport: size });
    const fresh = await context.newPage();
    await fresh.goto('/auth');
    await fresh.getByLabel('Email').fill(email);
    await fresh.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await fresh.getByRole('button', { name: 'Sign in' }).click();
    const toast = toastOf(fresh);
    await expect(toast).toContainText('Welcome back!');
    const firstStat = fresh.getByRole('button').filter({ has: fresh.getByTestId('stat-all') });
    await expect(firstStat).toBeVisible();
    // On a phone the toast sits just below the header, above the stat cards' row; on a laptop at
    // the bottom left, below them (a window so short that they reach its foot is left to the
    // toast's five seconds: the other places at the foot cover the controls a notice answers).
    await expect.poll(() => toast.evaluate((el) => el.getAnimations().length)).toBe(0);
    const header = fresh.getByRole('banner');
    expect(await boxesOverlap(toast, header), `toast over the header at ${size.width}`).toBe(false);
    expect(await boxesOverlap(toast, header.getByRole('button', { name: 'Logout' })), `toast over Logout at ${size.width}`).toBe(false);
    expect(await boxesOverlap(toast, firstStat), `toast over the first stat card at ${size.width}`).toBe(false);
    await fresh.screenshot({ path: `${SHOTS}/toast-dashboard-${size.width}.png` });
    await context.close();
  }
});
