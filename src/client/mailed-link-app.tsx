import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { mailedLinkPage } from '@shared/first-pages';
import { ErrorBoundary } from '@client/components/error-boundary';
import { ScrollToTopOnNavigate, ToasterWhenNeeded } from '@client/components/page-frame';
import { FullScreenSpinner, PAGE_LOADING_TEXT } from '@client/components/ui/spinner';
import { retryFailedPages } from '@client/lib/lazy-page';
import { queryClient } from '@client/lib/query-client';
import { MAILED_LINK_ROUTES, preloadMailedLinkPage } from '@client/mailed-link-routes';

if (typeof window !== 'undefined') preloadMailedLinkPage(window.location.pathname);

/**
 * The pages a link in an email opens (/sign, /payee, /unsubscribe; decision 202), without the
 * app's shell: no session check, no signed-in routes, no live connection, no artist header. Their
 * visitors, a co-owner or a payee without an account, mostly never see more of the product. The
 * same pages, query client, error boundary (CONTRACT §23) and toaster as in the app (app.tsx).
 */
export function MailedLinkApp() {
  const [location] = useLocation();
  return (
    <QueryClientProvider client={queryClient}>
      <ScrollToTopOnNavigate />
      <ErrorBoundary fullPage resetKey={location} onRetry={retryFailedPages}>
        <Suspense fallback={<FullScreenSpinner text={PAGE_LOADING_TEXT} />}>
          <Switch>
            {MAILED_LINK_ROUTES}
            <Route component={IntoTheApp} />
          </Switch>
        </Suspense>
      </ErrorBoundary>
      <ToasterWhenNeeded />
    </QueryClientProvider>
  );
}

/**
 * Any other address is the app's: this document has none of it, so the browser asks the server
 * for that address, which answers with the app (never this document again: it answers this one
 * only to the addresses of mailedLinkPage).
 */
function IntoTheApp() {
  useEffect(() => {
    if (!mailedLinkPage(window.location.pathname)) window.location.reload();
  }, []);
  return <FullScreenSpinner text={PAGE_LOADING_TEXT} />;
}
