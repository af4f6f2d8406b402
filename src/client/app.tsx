import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import type { FirstPagePath } from '@shared/first-pages';
import { ErrorBoundary } from '@client/components/error-boundary';
import { FullScreenSpinner } from '@client/components/ui/spinner';
import { AUTH_LOADING_TEXT, useAuth } from '@client/lib/auth';
import { loadChunk } from '@client/lib/chunk-load';
import { loadedArtistHeader } from '@client/lib/page-chrome';
import { queryClient } from '@client/lib/query-client';
import { showCarriedOverToast, useToasts } from '@client/lib/toast';

/** Forgets every page whose chunk failed to load, so that "Try again" fetches it anew. */
const forgetFailedLoads = new Set<() => void>();
const retryFailedPages = () => {
  for (const forget of forgetFailedLoads) forget();
};

/**
 * Every screen is its own chunk, fetched when its route is first shown: the first load of /auth
 * carries only the sign-in page, and Stripe, the player, the wizard and the admin desk come only
 * with the screens that use them (issue 16; sizes held by bench/bundle.bench.ts). A chunk that
 * fails to load reloads the page once or reaches the route's error boundary (lib/chunk-load.ts);
 * React.lazy keeps a failure for good, so a failed page gets a new lazy component on retry.
 */
function page<K extends string, P extends object = object>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (loading ??= loadChunk(load).then(
      (module) => ({ default: module[name] }),
      (error: unknown) => {
        forgetFailedLoads.add(forget);
        throw error;
      },
    ));
  let Lazy: LazyExoticComponent<ComponentType<P>> = lazy(preload);
  function forget() {
    forgetFailedLoads.delete(forget);
    loading = undefined;
    Lazy = lazy(preload);
  }
  function Page(props: P) {
    return <Lazy {...props} />;
  }
  return Object.assign(Page, { preload });
}

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
const UnsubscribePage = page(() => import('@client/features/notifications/unsubscribe-page'), 'UnsubscribePage');
const MessagesPage = page(() => import('@client/features/messages/messages-page'), 'MessagesPage');
const TermsOfServicePage = page(() => import('@client/features/legal/terms-of-service-page'), 'TermsOfServicePage');
const PrivacyPolicyPage = page(() => import('@client/features/legal/privacy-policy-page'), 'PrivacyPolicyPage');
const SignPage = page(() => import('@client/features/signing/sign-page'), 'SignPage');
const PayeePage = page(() => import('@client/features/payees/payee-page'), 'PayeePage');
const PayeeReturnPage = page<'PayeeReturnPage', object>(() => import('@client/features/payees/payee-page'), 'PayeeReturnPage');
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
      <Suspense fallback={<FullScreenSpinner text="Loading..." />}>
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
      <Suspense fallback={<FullScreenSpinner text="Loading..." />}>
        <SignedInRoutes />
      </Suspense>
    </>
  );
}

/** Pages a link in an email or a footer opens, signed in or not (wouter's Switch reads through the fragment). */
const PAGES_FOR_EVERYONE = (
  <>
    <Route path="/reset-password" component={ResetPasswordPage} />
    <Route path="/unsubscribe" component={UnsubscribePage} />
    <Route path="/terms-of-service" component={TermsOfServicePage} />
    <Route path="/privacy-policy" component={PrivacyPolicyPage} />
    <Route path="/sign/:token">{(params) => <SignPage token={params.token} />}</Route>
    {/* A payee's own page (CONTRACT §24), and where Stripe's onboarding brings them back. */}
    <Route path="/payee/return" component={PayeeReturnPage} />
    <Route path="/payee/:token">{(params) => <PayeePage token={params.token} />}</Route>
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

type ToasterComponent = ComponentType;
let toasterLoad: Promise<ToasterComponent> | undefined;
const loadToaster = () =>
  (toasterLoad ??= import('@client/components/ui/toaster').then(
    (module) => module.Toaster,
    (error: unknown) => {
      toasterLoad = undefined;
      throw error;
    },
  ));

/** What tells the toaster that the person is acting on the page (press, tap or key). */
const FIRST_ACT_EVENTS = ['pointerdown', 'keydown'] as const;

/**
 * The toast machinery (Radix Toast) is fetched when the page first needs it, not with every first
 * page (the /auth budget, and issue 37: a first page fetches what it shows, decision 181): with
 * the first toast, or as soon as the person first presses, taps or types on the page, whichever
 * comes first. A toast answers something; the first one is often an error of something the
 * person did (an upload that lost the connection), and offline its chunk could not come
 * (issue 33), so it is fetched when they start acting, while still online. Without React.lazy, a
 * failed fetch throws nowhere: it is tried again when the browser is back online, and toasts
 * raised meanwhile wait in lib/toast.ts's store.
 */
function ToasterWhenNeeded() {
  const [Toaster, setToaster] = useState<ToasterComponent | null>(null);
  // Once needed, for good: a toast dismissed before the chunk came leaves the next one to show.
  const [needed, setNeeded] = useState(false);
  const toastRaised = useToasts().length > 0;
  if (toastRaised && !needed) setNeeded(true);
  useEffect(() => {
    showCarriedOverToast();
    const onAct = () => setNeeded(true);
    for (const type of FIRST_ACT_EVENTS) window.addEventListener(type, onAct, { capture: true, once: true, passive: true });
    return () => {
      for (const type of FIRST_ACT_EVENTS) window.removeEventListener(type, onAct, { capture: true });
    };
  }, []);
  useEffect(() => {
    if (!needed) return;
    let cancelled = false;
    const attempt = () =>
      loadToaster().then(
        (component) => {
          if (!cancelled) setToaster(() => component);
        },
        () => window.addEventListener('online', attempt, { once: true }),
      );
    void attempt();
    return () => {
      cancelled = true;
      window.removeEventListener('online', attempt);
    };
  }, [needed]);
  return Toaster ? <Toaster /> : null;
}

/** Client-side navigation keeps the scroll position; a new page should start at its top. */
function ScrollToTopOnNavigate() {
  const [location] = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}
