import type { ReactNode } from 'react';
import { Route } from 'wouter';
import { MAILED_LINK_PAGES, mailedLinkPage, type MailedLinkRoute } from '@shared/first-pages';
import { page } from '@client/lib/lazy-page';

const SignPage = page(() => import('@client/features/signing/sign-page'), 'SignPage');
const PayeePage = page(() => import('@client/features/payees/payee-page'), 'PayeePage');
const PayeeReturnPage = page<'PayeeReturnPage', object>(() => import('@client/features/payees/payee-page'), 'PayeeReturnPage');
const UnsubscribePage = page(() => import('@client/features/notifications/unsubscribe-page'), 'UnsubscribePage');

/** What each mailed-link route renders; the routes and their modules are listed in shared/first-pages.ts. */
const PAGES: Record<MailedLinkRoute, { render: (params: Record<string, string | undefined>) => ReactNode; preload: () => unknown }> = {
  '/sign/:token': { render: (params) => <SignPage token={params.token!} />, preload: SignPage.preload },
  // A payee's own page (CONTRACT §24), and where Stripe's onboarding brings them back.
  '/payee/return': { render: () => <PayeeReturnPage />, preload: PayeeReturnPage.preload },
  '/payee/:token': { render: (params) => <PayeePage token={params.token!} />, preload: PayeePage.preload },
  '/unsubscribe': { render: () => <UnsubscribePage />, preload: UnsubscribePage.preload },
};

/**
 * The pages a link in an email opens, signed in or not (decision 202), as routes for a wouter
 * Switch: in the app's (app.tsx) and in the light entry's (mailed-link-app.tsx), which is what
 * the server answers these addresses with.
 */
export const MAILED_LINK_ROUTES = MAILED_LINK_PAGES.map(({ route }) => (
  <Route key={route} path={route}>
    {PAGES[route].render}
  </Route>
));

/** Starts loading the page of the address the document opens on, before the first render decides on it. */
export function preloadMailedLinkPage(pathname: string): void {
  const found = mailedLinkPage(pathname);
  if (found) void PAGES[found.route].preload();
}
