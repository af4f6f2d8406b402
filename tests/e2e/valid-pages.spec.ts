import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { HtmlValidate } from 'html-validate';
import { adminApi, animationsEnded, createSubmission, newArtistApi, registerArtist, signInAsAdmin } from './fixtures';

/**
 * Issue 34 part 4: every page is valid HTML, as the server sends it and after React rendered it
 * (html-validate, the standards rules), and axe finds nothing serious or critical on it, on a
 * phone (390 px) and a laptop (1280 px). The list of pages is here: a page added to the app is
 * added to it.
 */
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

type Who = 'visitor' | 'artist' | 'admin';
/** Every page of the client, by who sees it; `heading` is what shows once it has rendered. */
const PAGES: { path: string; who: Who; heading: RegExp }[] = [
  { path: '/auth', who: 'visitor', heading: /sign in|welcome/i },
  { path: '/reset-password?token=not-a-real-token', who: 'visitor', heading: /password/i },
  { path: '/unsubscribe?token=not-a-real-token', who: 'visitor', heading: /email preferences/i },
  { path: '/terms-of-service', who: 'visitor', heading: /terms/i },
  { path: '/privacy-policy', who: 'visitor', heading: /privacy/i },
  // A payee's page (CONTRACT §24) with a link that is no good: it offers a fresh one.
  { path: '/payee/not-a-real-token-0123456789', who: 'visitor', heading: /bonus/i },
  { path: '/dashboard', who: 'artist', heading: /./ },
  { path: '/submit', who: 'artist', heading: /./ },
  { path: '/payment-success', who: 'artist', heading: /./ },
  { path: '/payment-failure', who: 'artist', heading: /./ },
  { path: '/settings', who: 'artist', heading: /./ },
  { path: '/settings/delete-account', who: 'artist', heading: /./ },
  { path: '/settings/billing', who: 'artist', heading: /./ },
  { path: '/messages', who: 'artist', heading: /./ },
  { path: '/no-such-page', who: 'artist', heading: /./ },
  { path: '/admin', who: 'admin', heading: /admin dashboard/i },
  { path: '/admin/outbox', who: 'admin', heading: /./ },
  { path: '/admin/users', who: 'admin', heading: /./ },
  { path: '/admin/channel', who: 'admin', heading: /./ },
  { path: '/admin/webhooks', who: 'admin', heading: /webhooks/i },
  { path: '/messages', who: 'admin', heading: /./ },
];

/** The standards rules: what makes a document invalid, not matters of style. */
const validator = new HtmlValidate({ extends: ['html-validate:standard'] });

async function htmlErrors(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((result) => result.messages.map((m) => `${m.ruleId}: ${m.message} (${m.selector ?? `line ${m.line}`})`));
}

/**
 * Signs the page in; the artist has a pending and an approved (licensed: the lock) submission,
 * and the admin's desk shows rows and another user to make an admin.
 */
async function signInAs(page: Page, who: Who, baseURL: string): Promise<{ path: string; heading: RegExp }[]> {
  if (who === 'visitor') return [];
  const artist = who === 'artist' ? page.request : (await newArtistApi(baseURL, { prefix: 'valid-pages', profile: { artistName: 'Valid Pages' } })).api;
  if (who === 'artist') await registerArtist(page, { prefix: 'valid-pages', profile: { artistName: 'Valid Pages' } });
  await createSubmission(artist, { songTitle: 'Pending Song' });
  const approved = await createSubmission(artist, { songTitle: 'Approved Song' });
  const team = await adminApi(baseURL);
  expect((await team.patch(`/api/admin/submissions/${approved}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  if (who === 'admin') {
    // The header with counts above zero (issue 43 item 8): news from an artist (a signed agreement)
    // and a message the team has not read. The details opened below are another submission's, so
    // the news stays unseen on every page.
    const signedSong = await createSubmission(artist, { songTitle: 'Signed Song' });
    expect((await team.patch(`/api/admin/submissions/${signedSong}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
    expect((await artist.post(`/api/submissions/${signedSong}/agreement/sign`, { data: { name: 'Valid Pages', consent: true } })).ok()).toBe(true);
    const { id: adminId } = (await (await team.get('/api/user')).json()) as { id: string };
    expect((await artist.post('/api/messages', { data: { toUserId: adminId, content: 'Is the header still accessible with this?' } })).status()).toBe(201);
    await signInAsAdmin(page);
    return [];
  }
  // The checkout of a paid submission awaiting payment: its card's label (issue 43 item 8, html-validate).
  const checkout = await createSubmission(artist, { songTitle: 'Checkout Song', pricingTier: 'basic' });
  return [{ path: `/checkout/${checkout}`, heading: /checkout/i }];
}

/** On a team page: the header's "New" and Messages links show counts above zero. */
async function expectHeaderCounts(page: Page): Promise<void> {
  await expect(page.getByTestId('artist-activity-header')).toBeVisible();
  await expect(page.getByTestId('unread-badge')).toBeVisible();
}

/** The desk's details dialog, open over /admin: what "Change status" sits in. */
async function openDetails(page: Page): Promise<void> {
  await page.getByRole('button', { name: /View details of Approved Song/ }).first().click();
  await expect(page.getByRole('dialog', { name: /Submission Details/ })).toBeVisible();
  await page.waitForLoadState('networkidle');
}

for (const who of ['visitor', 'artist', 'admin'] as const) {
  test(`every ${who} page is valid HTML, sent and rendered, and axe finds nothing serious at 390 and 1280 px`, async ({ page, baseURL }) => {
    test.setTimeout(300_000);
    const extra = await signInAs(page, who, baseURL!);
    const problems: string[] = [];
    for (const { path, heading } of [...PAGES.filter((p) => p.who === who), ...extra]) {
      const sent = await page.request.get(path);
      expect(sent.status(), path).toBe(200);
      for (const error of await htmlErrors(await sent.text())) problems.push(`${path} as sent: ${error}`);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.goto(path);
        await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
        await page.waitForLoadState('networkidle');
        if (who === 'admin') await expectHeaderCounts(page);
        for (const error of await htmlErrors(await page.content())) problems.push(`${path} at ${size.width} px, rendered: ${error}`);
        const views = path === '/admin' ? ['', ' with the details open'] : [''];
        for (const view of views) {
          if (view) await openDetails(page);
          await animationsEnded(page);
          const axe = await new AxeBuilder({ page }).analyze();
          for (const v of axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
            problems.push(`${path}${view} at ${size.width} px: axe ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
          }
        }
      }
    }
    expect([...new Set(problems)]).toEqual([]);
  });
}
