import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, toastText, uniqueEmail } from './fixtures';
import { TERMS_VERSION } from '../../src/shared/terms';

/** Browser journeys of the auth screen, the routing rules and the legal pages (SPEC §2, §4, §5, §8, §9). */

interface Artist {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

function newArtist(): Artist {
  return {
    firstName: 'Mara',
    lastName: 'Quill',
    email: uniqueEmail('artist'),
    password: PASSWORD,
  };
}

/**
 * Creates the account through the API; the page's context receives the session cookie. The
 * artist profile is completed too (artist name = first and last name), so the dashboard opens
 * without the profile prompt that a brand-new account gets.
 */
async function registerThroughApi(page: Page, artist: Artist): Promise<void> {
  const { firstName, lastName, email, password } = artist;
  const res = await page.request.post('/api/register', { data: { firstName, lastName, email, password } });
  expect(res.status()).toBe(201);
  const profile = await page.request.put('/api/profile', { data: { artistName: `${firstName} ${lastName}` } });
  expect(profile.status()).toBe(200);
}

async function openSignIn(page: Page): Promise<void> {
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
}

async function openCreateAccount(page: Page): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Create Account' }).click();
  await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible();
}

async function signInThroughUi(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('accounts', () => {
  test('sign-up lands on /dashboard with the name in the header', async ({ page }) => {
    const artist = newArtist();
    const sent: unknown[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/api/register')) sent.push(req.postDataJSON());
    });

    await openCreateAccount(page);
    await page.getByLabel('First name').fill(artist.firstName);
    await page.getByLabel('Last name').fill(artist.lastName);
    await page.getByLabel('Email').fill(artist.email);
    await page.getByLabel('Password', { exact: true }).fill(artist.password);
    await page.getByLabel('Confirm password', { exact: true }).fill(artist.password);
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(toastText(page, 'Account created!')).toBeVisible();
    await expect(toastText(page, 'Welcome to the product! Please complete your artist profile.')).toBeVisible();
    // A new account is asked for its artist profile; it can be completed later.
    const prompt = page.getByRole('dialog', { name: 'Complete your artist profile' });
    await expect(prompt).toBeVisible();
    await prompt.getByRole('button', { name: 'Later' }).click();
    await expect(page.getByRole('banner').getByText('Mara Quill')).toBeVisible();
    // Brand-new: welcomed, not welcomed back.
    await expect(page.getByRole('heading', { name: 'Welcome, Mara!' })).toBeVisible();
    // The confirmation is never sent (SPEC §5).
    expect(sent).toEqual([{ firstName: 'Mara', lastName: 'Quill', email: artist.email, password: artist.password }]);
  });

  test('sign-out goes to /auth and signing in again returns to the dashboard', async ({ page }) => {
    const artist = newArtist();
    await registerThroughApi(page, artist);
    await page.goto('/dashboard');
    await expect(page.getByRole('banner').getByText('Mara Quill')).toBeVisible();

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();

    // The session is really gone: the dashboard is no longer reachable.
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth$/);

    await signInThroughUi(page, artist.email, artist.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('banner').getByText('Mara Quill')).toBeVisible();
    await expect(toastText(page, 'Welcome back!')).toBeVisible();
    await expect(toastText(page, "You've been successfully logged in.")).toBeVisible();
  });

  test('a wrong password shows the Login failed toast with the server message', async ({ page }) => {
    const artist = newArtist();
    await registerThroughApi(page, artist);
    await page.context().clearCookies();

    await openSignIn(page);
    await signInThroughUi(page, artist.email, 'not-the-password');

    await expect(toastText(page, 'Login failed')).toBeVisible();
    await expect(page.getByRole('region', { name: /Notifications/ }).getByText('Invalid email or password', { exact: true })).toBeVisible();
    // Said at the form too, where the person is looking.
    await expect(page.getByTestId('login-error')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('registering an email that is already taken shows Registration failed', async ({ page }) => {
    const artist = newArtist();
    await registerThroughApi(page, artist);
    await page.context().clearCookies();

    await openCreateAccount(page);
    await page.getByLabel('First name').fill('Other');
    await page.getByLabel('Last name').fill('Person');
    await page.getByLabel('Email').fill(artist.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect(toastText(page, 'Registration failed')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test.describe('form validation', () => {
  test('the sign-in form explains an empty or invalid email and a short password, and sends nothing', async ({ page }) => {
    let loginCalls = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/api/login') && req.method() === 'POST') loginCalls += 1;
    });
    await openSignIn(page);

    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('12345');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();

    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByLabel('Password', { exact: true }).fill('123456');
    await expect(page.getByText('Please enter a valid email address')).toBeHidden();
    await expect(page.getByText('Password must be at least 6 characters')).toBeHidden();
    expect(loginCalls).toBe(0);
  });

  test('the register form explains short names, an invalid email, short passwords and a mismatched confirmation', async ({ page }) => {
    let registerCalls = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/api/register')) registerCalls += 1;
    });
    await openCreateAccount(page);

    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('First name must be at least 2 characters')).toBeVisible();
    await expect(page.getByText('Last name must be at least 2 characters')).toBeVisible();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(page.getByText('Please confirm your password')).toBeVisible();

    await page.getByLabel('First name').fill('M');
    await page.getByLabel('Last name').fill('Q');
    await page.getByLabel('Email').fill('mara@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(`${PASSWORD}-typo`);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('First name must be at least 2 characters')).toBeVisible();
    await expect(page.getByText('Last name must be at least 2 characters')).toBeVisible();
    await expect(page.getByText('Please enter a valid email address')).toBeHidden();

    await page.getByLabel('First name').fill('Mara');
    await page.getByLabel('Last name').fill('Quill');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText("Passwords don't match")).toBeVisible();
    await expect(page.getByLabel('Confirm password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    expect(registerCalls).toBe(0);
  });

  test('each password field has its own show/hide toggle', async ({ page }) => {
    await openCreateAccount(page);
    const password = page.getByLabel('Password', { exact: true });
    const confirm = page.getByLabel('Confirm password', { exact: true });
    await expect(password).toHaveAttribute('type', 'password');
    await expect(confirm).toHaveAttribute('type', 'password');

    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(confirm).toHaveAttribute('type', 'password');

    await page.getByRole('button', { name: 'Show confirm password' }).click();
    await expect(confirm).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
  });
});

test.describe('routing', () => {
  for (const path of ['/dashboard', '/submit', '/']) {
    test(`a signed-out visit to ${path} shows the auth screen`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Create Account' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
    });
  }

  test('a signed-in user opening /auth is redirected to /dashboard', async ({ page }) => {
    await registerThroughApi(page, newArtist());
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('banner').getByText('Mara Quill')).toBeVisible();
  });

  test('a signed-in unknown path shows a 404 page leading back to the dashboard', async ({ page }) => {
    await registerThroughApi(page, newArtist());
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an artist sees no Admin Panel button and is denied /admin', async ({ page }) => {
    await registerThroughApi(page, newArtist());
    await page.goto('/dashboard');
    await expect(page.getByRole('banner').getByText('Mara Quill')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  });
});

test.describe('auth screen', () => {
  test('a Google error code is explained, and no tab offers Google while it is not configured', async ({ page }) => {
    await page.goto('/auth?error=not_configured');
    await expect(page.getByRole('alert').filter({ hasText: 'Google sign-in is not configured' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Continue with Google' })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Create Account' }).click();
    await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Continue with Google' })).toHaveCount(0);
  });

  test('the terms link opens the Terms of Service in a new tab', async ({ page }) => {
    await openSignIn(page);
    const link = page.getByRole('link', { name: 'Terms of Service' });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
    const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    await expect(popup).toHaveURL(/\/terms-of-service$/);
    await expect(popup.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
  });

  test('the genre strip shows the genres and scrolls by itself, pausing on hover', async ({ page }) => {
    // The page's clock is the test's: time flows as usual until it is paused, then each step is run on purpose.
    await page.clock.install();
    await openSignIn(page);
    const strip = page.getByTestId('genre-strip');
    await expect(strip.getByText('Gothic Metal', { exact: true }).first()).toBeVisible();
    // 30 genres repeated 4 times (SPEC §9).
    await expect(strip.getByRole('listitem', { includeHidden: true })).toHaveCount(120);
    await expect(strip.getByRole('listitem')).toHaveCount(30);
    await expect(strip.getByText('Dungeon Synth', { exact: true })).toHaveCount(4);

    const track = page.getByTestId('genre-track');
    const position = () => track.evaluate((el) => getComputedStyle(el).transform);
    const first = await position();
    await expect.poll(position, { timeout: 3000 }).not.toBe(first);

    // From here the strip moves only as far as the clock is run: 600 ms moves it, unless hovered.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    const running = await position();
    await page.clock.runFor(600);
    expect(await position()).not.toBe(running);

    await strip.hover();
    const paused = await position();
    await page.clock.runFor(600);
    expect(await position()).toBe(paused);

    // It resumes 0.5–1.5 s after the pointer leaves.
    await page.mouse.move(5, 5);
    await page.clock.runFor(1600);
    expect(await position()).not.toBe(paused);
  });
});

test.describe('legal pages', () => {
  const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
  const today = longDate.format(new Date());
  // The Terms are dated by the version a licence record keeps (issue 23), the Privacy Policy by today.
  const [year, month, day] = TERMS_VERSION.split('-').map(Number);
  const termsDate = longDate.format(new Date(year!, month! - 1, day));

  for (const { path, title, section, updated } of [
    { path: '/terms-of-service', title: 'Terms of Service', section: 'License and Rights Granted', updated: termsDate },
    { path: '/privacy-policy', title: 'Privacy Policy', section: 'Your Rights Under the GDPR', updated: today },
  ]) {
    test(`${title} is reachable signed out, dated, with a Back button to /`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: new RegExp(section) })).toBeVisible();
      await expect(page.getByText(`Last updated: ${updated}`)).toBeVisible();

      const back = page.getByRole('link', { name: 'Back' });
      await expect(back).toHaveAttribute('href', '/');
      await back.click();
      // Signed out, / falls back to the auth screen.
      await expect(page).toHaveURL(/\/auth$/);
    });
  }

  test('the legal pages stay reachable signed in, and Back leads to the dashboard', async ({ page }) => {
    await registerThroughApi(page, newArtist());
    await page.goto('/privacy-policy');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/$/);
    // The greeting prefers the artist name that registerThroughApi set; no submission yet, so no "back".
    await expect(page.getByRole('heading', { name: 'Welcome, Mara Quill!' })).toBeVisible();
  });
});
