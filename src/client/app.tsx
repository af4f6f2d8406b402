import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import type { FirstPagePath } from '@shared/first-pages';
import { ErrorBoundary } from '@client/components/error-boundary';
import { ScrollToTopOnNavigate, ToasterWhenNeeded } from '@client/components/page-frame';
import { FullScreenSpinner, PAGE_LOADING_TEXT } from '@client/components/ui/spinner';
import { AUTH_LOADING_TEXT, useAuth } from '@client/lib/auth';
import { page, retryFailedPages } from '@client/lib/lazy-page';
import { loadedArtistHeader } from '@client/lib/page-chrome';
import { queryClient } from '@client/lib/query-client';
import { MAILED_LINK_ROUTES } from '@client/mailed-link-routes';

const AuthPage = page(() => import('@client/features/auth/auth-page'), 'AuthPage');
const DashboardPage = page(() => import('@client/routes/dashboard-page'), 'DashboardPage');
const SubmitPage = page(() => import('@client/features/submissions/submit-page'), 'SubmitPage');
const CheckoutPage = page(() => import('@client/features/payments/checkout-page'), 'CheckoutPage');
const PaymentSuccessPage = page(() => import('@client/features/payments/payment-success-page'), 'PaymentSuccessPage');
const PaymentFailurePage = page(() => import('@client/features/payments/payment-failure-page'), 'PaymentFailurePage');
const AdminPage = page(() => import('@client/features/admin/admin-page'), 'AdminPage');
const OutboxPage = page(() => import('@client/features/notifications/outbox-page'), 'OutboxPage');
const AccountSettingsPage = page(() => import('@client/routes/account-settings-page'), 'AccountSettingsPage');
const BillingPage = page(() => import('@client/routes/billing-page'), 'BillingPage');
const DeleteAccountPage = page(() => import('@client/features/account/delete-account-page'), 'DeleteAccountPage');
const TeamPage = page(() => import('@client/features/admin/team-page'), 'TeamPage');
const AdminRoute = page(() => import('@client/routes/admin-route'), 'AdminRoute');
const ChannelPage = page(() => import('@client/features/admin/channel-page'), 'ChannelPage');
const WebhooksPage = page(() => import('@client/features/admin/webhooks-page'), 'WebhooksPage');
const ResetPasswordPage = page(() => import('@client/features/auth/reset-password-page'), 'ResetPasswordPage');
const MessagesPage = page(() => import('@client/features/messages/messages-page'), 'MessagesPage');
const TermsOfServicePage = page(() => import('@client/features/legal/terms-of-service-page'), 'TermsOfServicePage');
const PrivacyPolicyPage = page(() => import('@client/features/legal/privacy-policy-page'), 'PrivacyPolicyPage');
const NotFoundPage = page(() => import('@client/features/not-found/not-found-page'), 'NotFoundPage');

/**
 * The page of the address the app opens on starts loading at once, not after the first render has
 * decided which screen to show (nor, on a page without the session written in, after the session
 * check). The server also names these pages' chunks in the HTML (src/shared/first-pages.ts).
 */
const FIRST_PAGE: Record<FirstPagePath, { preload: () => unknown }> = {
  '/': DashboardPage,
  '/dashboard': DashboardPage,
  '/auth': AuthPage,
  '/submit': SubmitPage,
  '/admin': AdminPage,
  '/messages': MessagesPage,
  '/settings': AccountSettingsPage,
};
if (typeof window !== 'undefined') void FIRST_PAGE[window.location.pathname as FirstPagePath]?.preload();

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ScrollToTopOnNavigate />
      <RouteBoundary>
        <AppRoutes />
      </RouteBoundary>
      <ToasterWhenNeeded />
    </QueryClientProvider>
  );
}

/** SPEC §2 "Routing": which screens exist depends on whether someone is signed in. */
function AppRoutes() {
  const { status } = useAuth();
  if (status === 'loading') return <FullScreenSpinner text={AUTH_LOADING_TEXT} />;
  if (status !== 'authenticated') {
    return (
      <Suspense fallback={<FullScreenSpinner text={PAGE_LOADING_TEXT} />}>
        <SignedOutRoutes />
      </Suspense>
    );
  }
  return (
    <>
      {/* One live connection for the whole signed-in session (CONTRACT §7); its code comes with
          the first signed-in screen, not with the sign-in page. */}
      <ErrorBoundary onRetry={retryFailedPages}>
        <Suspense fallback={null}>
          <LiveData />
        </Suspense>
      </ErrorBoundary>
      <Suspense fallback={<FullScreenSpinner text={PAGE_LOADING_TEXT} />}>
        <SignedInRoutes />
      </Suspense>
    </>
  );
}

/** Pages a link in an email or a footer opens, signed in or not (wouter's Switch reads through the fragment). */
const PAGES_FOR_EVERYONE = (
  <>
    <Route path="/reset-password" component={ResetPasswordPage} />
    <Route path="/terms-of-service" component={TermsOfServicePage} />
    <Route path="/privacy-policy" component={PrivacyPolicyPage} />
    {/* The pages of a link in an email; the server answers them with the light entry (decision 202). */}
    {MAILED_LINK_ROUTES}
  </>
);

function SignedInRoutes() {
  return (
    <Switch>
      <Route path="/" component={DashboardPage} />
      <Route path="/dashboard" component={DashboardPage} />
      <Route path="/submit" component={SubmitPage} />
      <Route path="/checkout/:submissionId">{(params) => <CheckoutPage submissionId={params.submissionId} />}</Route>
      <Route path="/payment-success" component={PaymentSuccessPage} />
      <Route path="/payment-failure" component={PaymentFailurePage} />
      <Route path="/admin" component={AdminPage} />
      {/* The team's pages below /admin, in their one shell with its access guard (routes/admin-route.tsx). */}
      <Route path="/admin/outbox">
        <AdminRoute>
          <OutboxPage />
        </AdminRoute>
      </Route>
      <Route path="/admin/users">
        <AdminRoute>
          <TeamPage />
        </AdminRoute>
      </Route>
      <Route path="/admin/channel">
        <AdminRoute width="max-w-3xl">
          <ChannelPage />
        </AdminRoute>
      </Route>
      <Route path="/admin/webhooks">
        <AdminRoute width="max-w-3xl">
          <WebhooksPage />
        </AdminRoute>
      </Route>
      <Route path="/settings" component={AccountSettingsPage} />
      <Route path="/settings/delete-account" component={DeleteAccountPage} />
      <Route path="/settings/billing" component={BillingPage} />
      <Route path="/messages" component={MessagesPage} />
      {PAGES_FOR_EVERYONE}
      <Route path="/auth">
        <Redirect to="/dashboard" replace />
      </Route>
      <Route component={NotFoundPage} />
    </Switch>
  );
}

function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/auth" component={AuthPage} />
      {PAGES_FOR_EVERYONE}
      <Route>
        <Redirect to="/auth" replace />
      </Route>
    </Switch>
  );
}

const LiveData = page<'LiveData'>(() => import('@client/entities/live/live-data'), 'LiveData');

/**
 * CONTRACT §23: a route that fails to load or breaks shows a retry, not a blank page; a new address
 * starts afresh. Below the artist's header when a page showing it loaded before in this tab
 * (lib/page-chrome.ts); the team's pages carry their own header with its counts, and theirs shows
 * the message alone.
 */
function RouteBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const { user } = useAuth();
  const Header = loadedArtistHeader();
  const teamPage = location.startsWith('/admin') || (user?.role === 'admin' && location.startsWith('/messages'));
  const header =
    user && Header && !teamPage ? (
      <ErrorBoundary>
        <Header user={user} />
      </ErrorBoundary>
    ) : undefined;
  return (
    <ErrorBoundary fullPage resetKey={location} onRetry={retryFailedPages} header={header}>
      {children}
    </ErrorBoundary>
  );
}
