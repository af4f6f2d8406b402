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
 * The id of the element in which the server writes who is signed in (a PublicUser as JSON, or
 * `null`) into every page it serves, so the first screen is drawn without waiting for
 * GET /api/user (client/lib/auth.ts; decision 144).
 */
export const SESSION_IN_PAGE_ID = 'hub-session';
