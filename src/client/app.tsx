import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import type { FirstPagePath } from '@shared/first-pages';
import { FullScreenSpinner } from '@client/components/ui/spinner';
import { AUTH_LOADING_TEXT, useAuth } from '@client/lib/auth';
import { queryClient } from '@client/lib/query-client';
import { showCarriedOverToast, useToasts } from '@client/lib/toast';

/**
 * Every screen is its own chunk, fetched when its route is first shown: the first load of /auth
 * carries only the sign-in page, and Stripe, the player, the wizard and the admin desk come only
 * with the screens that use them (issue 16; sizes held by bench/bundle.bench.ts).
 */
function page<K extends string, P extends object = object>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => (loading ??= load().then((module) => ({ default: module[name] })));
  return Object.assign(lazy(preload), { preload });
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
const ChannelPage = page(() => import('@client/features/admin/channel-page'), 'ChannelPage');
const ResetPasswordPage = page(() => import('@client/features/auth/reset-password-page'), 'ResetPasswordPage');
const UnsubscribePage = page(() => import('@client/features/notifications/unsubscribe-page'), 'UnsubscribePage');
const MessagesPage = page(() => import('@client/features/messages/messages-page'), 'MessagesPage');
const TermsOfServicePage = page(() => import('@client/features/legal/terms-of-service-page'), 'TermsOfServicePage');
const PrivacyPolicyPage = page(() => import('@client/features/legal/privacy-policy-page'), 'PrivacyPolicyPage');
const SignPage = page(() => import('@client/features/signing/sign-page'), 'SignPage');
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
      <AppRoutes />
      <DeferredToaster />
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
      <Suspense fallback={null}>
        <LiveMessages />
      </Suspense>
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
      <Route path="/admin/outbox" component={OutboxPage} />
      <Route path="/admin/users" component={TeamPage} />
      <Route path="/admin/channel" component={ChannelPage} />
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

const LiveMessages = lazy(() => import('@client/features/messages/live-messages').then((module) => ({ default: module.LiveMessages })));

const Toaster = lazy(() => import('@client/components/ui/toaster').then((module) => ({ default: module.Toaster })));

/** The toast machinery (Radix Toast) loads with the first toast, not with the first page. */
function DeferredToaster() {
  const toasts = useToasts();
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    showCarriedOverToast();
  }, []);
  useEffect(() => {
    if (toasts.length > 0) setNeeded(true);
  }, [toasts.length]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

/** Client-side navigation keeps the scroll position; a new page should start at its top. */
function ScrollToTopOnNavigate() {
  const [location] = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location]);
  return null;
}
