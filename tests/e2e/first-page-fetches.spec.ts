import { expect, test, type Page } from '@playwright/test';
import { FIRST_PAGE_READS } from '../../src/shared/first-pages';
import { registerArtist, toastText } from './fixtures';

/**
 * What a first page fetches (issue 37, decision 181): what it shows, and what is needed later
 * when it is needed. zod (the schemas) comes when a form is typed in, the toaster (Radix Toast)
 * with the first toast or the person's first press or key; react-hook-form is not on a new
 * artist's first /dashboard at all. Each is recognised by text its code keeps when minified.
 * bench/bundle.bench.ts counts the bytes.
 */
const MARKS = {
  zod: 'ZodObject',
  'react-hook-form': 'shouldUnregister',
  toaster: '--radix-toast-swipe-move-x',
} as const;
type Piece = keyof typeof MARKS;

/** Starts watching the page's scripts; answers a function that tells which pieces were asked for so far (once they have come). */
function watchScripts(page: Page): () => Promise<Piece[]> {
  const bodies: Promise<string>[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') {
      bodies.push(
        request
          .response()
          .then((response) => response?.text() ?? '')
          .catch(() => ''),
      );
    }
  });
  return async () => {
    const scripts = await Promise.all(bodies);
    return (Object.keys(MARKS) as Piece[]).filter((piece) => scripts.some((script) => script.includes(MARKS[piece])));
  };
}

/**
 * Until the page has done what it does by itself: its network idle and then a moment the browser
 * had nothing else to run (where work put off until idle would have begun, and been seen by
 * watchScripts, which counts a script from its request).
 */
async function pageAtRest(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
}

test("a new artist's first /dashboard fetches no zod, react-hook-form or toaster until they act; the schema and the toaster come when needed", async ({ page }) => {
  await registerArtist(page, { prefix: 'first-fetch' });
  const fetched = watchScripts(page);
  await page.goto('/dashboard');
  const dialog = page.getByRole('dialog', { name: 'Complete your artist profile' });
  await expect(dialog).toBeVisible();
  // The dialog put the focus in the form by itself: that alone fetches nothing more.
  await expect(dialog.getByLabel(/Artist name/)).toBeFocused();
  await pageAtRest(page);
  expect(await fetched()).toEqual([]);

  // Typing fetches the schema, the press on Save the toaster; the save's toast shows.
  await dialog.getByLabel(/Artist name/).fill('Nyx Vale');
  await expect.poll(fetched).toEqual(['zod']);
  await dialog.getByRole('button', { name: 'Save profile' }).click();
  await expect(toastText(page, 'Profile saved')).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(await fetched()).toEqual(['zod', 'toaster']);
});

test('/auth fetches the toaster with the first key pressed, not before', async ({ page }) => {
  const fetched = watchScripts(page);
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  await pageAtRest(page);
  expect(await fetched()).toEqual([]);
  await page.keyboard.press('Tab');
  await expect.poll(fetched).toEqual(['toaster']);
});

test('a toast raised before any press or key brings the toaster itself', async ({ page }) => {
  const fetched = watchScripts(page);
  await page.goto('/auth');
  // The first page takes any carried-over toast once it has rendered (the first render is a
  // transition, finished after `load` on a busy machine): the entry is left after that.
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // The toast a sign-in leaves for the page it reloads to (lib/toast.ts's toastThenNavigate).
  await page.evaluate(() => sessionStorage.setItem('toast:after-reload', JSON.stringify({ title: 'Carried over' })));
  await page.reload();
  await expect(toastText(page, 'Carried over')).toBeVisible();
  expect(await fetched()).toEqual(['toaster']);
});

test("a signed-in /dashboard asks for each read its document preloads, and each goes over the network once (decision 210)", async ({ page }) => {
  await registerArtist(page, { prefix: 'first-reads' });
  // What the app itself asks for, whether the browser answers it from a preload or not.
  await page.addInitScript(() => {
    const asked: string[] = [];
    (window as unknown as { askedByApp: string[] }).askedByApp = asked;
    const original = window.fetch.bind(window);
    window.fetch = (input, init) => {
      asked.push(new URL(input instanceof Request ? input.url : String(input), location.href).pathname);
      return original(input, init);
    };
  });
  const overNetwork: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) overNetwork.push(url.pathname);
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('dialog', { name: 'Complete your artist profile' })).toBeVisible();
  await pageAtRest(page);
  const reads = FIRST_PAGE_READS['/dashboard']!;
  // The document names them, the app asks for them, and only one request of each goes out: the
  // preload answered the app's.
  const preloaded = await page.locator('link[rel="preload"][as="fetch"]').evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
  expect(preloaded).toEqual([...reads]);
  const askedByApp = await page.evaluate(() => (window as unknown as { askedByApp: string[] }).askedByApp);
  for (const read of reads) {
    expect(askedByApp, `the dashboard asks for ${read}`).toContain(read);
    expect(overNetwork.filter((url) => url === read), `${read} over the network`).toHaveLength(1);
  }
});
