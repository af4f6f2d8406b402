/**
 * The screens a visit most often opens on, by address, with the module (as the build's manifest
 * names it, relative to src/client) that renders each. The client starts loading that module
 * as it starts (client/app.tsx), and the server names its chunks in the page's
 * HTML as modulepreload links, so they download in parallel with the entry script instead of after
 * it (server/platform/first-page-documents.ts; issue 16, decision 140). bench/bundle.bench.ts
 * holds the first-load budgets of two of them.
 */
export const FIRST_PAGE_MODULES = {
  '/': 'routes/dashboard-page.tsx',
  '/dashboard': 'routes/dashboard-page.tsx',
  '/auth': 'features/auth/auth-page.tsx',
  '/submit': 'features/submissions/submit-page.tsx',
  '/admin': 'features/admin/admin-page.tsx',
  '/messages': 'features/messages/messages-page.tsx',
  '/settings': 'routes/account-settings-page.tsx',
} as const;

export type FirstPagePath = keyof typeof FIRST_PAGE_MODULES;

/**
 * What the dashboard reads as it opens: the public settings, the artist's list and counts, their
 * bonus and their unread messages. In the document of a signed-in visit to these addresses the
 * server names each as a `preload` link, so the browser asks for them while the scripts download
 * and the app's own request of each (same address, with the cookie) is answered by that response
 * instead of starting only once the scripts have run (issue 50, decision 210). A read named here
 * that the dashboard stopped making would be fetched for nothing: a browser journey
 * (first-page-fetches.spec.ts) holds the list to what the page asks for.
 */
const DASHBOARD_READS = ['/api/config', '/api/submissions', '/api/stats', '/api/bonus', '/api/messages/unread-count'] as const;
export const FIRST_PAGE_READS: Partial<Record<FirstPagePath, readonly string[]>> = { '/': DASHBOARD_READS, '/dashboard': DASHBOARD_READS };

/**
 * The id of the element in which the server writes who is signed in (a PublicUser as JSON, or
 * `null`) into every page it serves, so the first screen is drawn without waiting for
 * GET /api/user (client/lib/auth.ts; decision 144).
 */
export const SESSION_IN_PAGE_ID = 'hub-session';

/**
 * The pages a link in an email opens, signed in or not (issue 50, decision 202): a co-owner's
 * signing link (CONTRACT §22), a payee's page and where Stripe's onboarding brings them back
 * (CONTRACT §24), and the unsubscribe page of an email's footer. Most of their visitors never
 * open the app itself, so the server answers these addresses with MAILED_LINK_DOCUMENT, whose
 * light entry (client/mailed-link-main.tsx) renders only these pages, not the app's shell; its
 * page's chunks are named as modulepreload links as for FIRST_PAGE_MODULES. In wouter's route
 * syntax (`:name` is one segment), first match wins; `module` as the build's manifest names it.
 */
export const MAILED_LINK_PAGES = [
  { route: '/sign/:token', module: 'features/signing/sign-page.tsx' },
  { route: '/payee/return', module: 'features/payees/payee-page.tsx' },
  { route: '/payee/:token', module: 'features/payees/payee-page.tsx' },
  { route: '/unsubscribe', module: 'features/notifications/unsubscribe-page.tsx' },
] as const;

export type MailedLinkRoute = (typeof MAILED_LINK_PAGES)[number]['route'];

/** The HTML document of the mailed-link pages, beside index.html in src/client and in the build. */
export const MAILED_LINK_DOCUMENT = 'mailed-link.html';

/**
 * The mailed-link pages are a build of their own, on Preact's React-compatible layer (vite.config.ts,
 * decision 202 amended), written into the app's build folder: its manifest (relative to that
 * folder, beside the app's .vite/manifest.json) and the folder of its chunks.
 */
export const MAILED_LINK_MANIFEST = '.vite/mailed-link-manifest.json';
export const MAILED_LINK_ASSETS = 'assets/mailed-link';

/** The mailed-link page an address (a path, without its query) opens, if any. */
export function mailedLinkPage(pathname: string): (typeof MAILED_LINK_PAGES)[number] | undefined {
  const segments = pathname.split('/');
  return MAILED_LINK_PAGES.find(({ route }) => {
    const parts = route.split('/');
    return parts.length === segments.length && parts.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]));
  });
}
