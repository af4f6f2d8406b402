import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { FullScreenSpinner } from '@client/components/ui/spinner';
import { Toaster } from '@client/components/ui/toaster';
import { TooltipProvider } from '@client/components/ui/tooltip';
import { AccountSettingsPage } from '@client/routes/account-settings-page';
import { DeleteAccountPage } from '@client/features/account/delete-account-page';
import { AdminPage } from '@client/features/admin/admin-page';
import { TeamPage } from '@client/features/admin/team-page';
import { AuthPage } from '@client/features/auth/auth-page';
import { ResetPasswordPage } from '@client/features/auth/reset-password-page';
import { DashboardPage } from '@client/routes/dashboard-page';
import { PrivacyPolicyPage } from '@client/features/legal/privacy-policy-page';
import { TermsOfServicePage } from '@client/features/legal/terms-of-service-page';
import { LiveMessages } from '@client/features/messages/live-messages';
import { MessagesPage } from '@client/features/messages/messages-page';
import { OutboxPage } from '@client/features/notifications/outbox-page';
import { UnsubscribePage } from '@client/features/notifications/unsubscribe-page';
import { NotFoundPage } from '@client/features/not-found/not-found-page';
import { CheckoutPage } from '@client/features/payments/checkout-page';
import { PaymentFailurePage } from '@client/features/payments/payment-failure-page';
import { PaymentSuccessPage } from '@client/features/payments/payment-success-page';
import { SubmitPage } from '@client/features/submissions/submit-page';
import { useAuth } from '@client/lib/auth';
import { queryClient } from '@client/lib/query-client';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <ScrollToTopOnNavigate />
        <AppRoutes />
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}

/** SPEC §2 "Routing": which screens exist depends on whether someone is signed in. */
function AppRoutes() {
  const { status } = useAuth();
  if (status === 'loading') return <FullScreenSpinner text="Loading authentication..." />;
  if (status !== 'authenticated') return <SignedOutRoutes />;
  return (
    <>
      {/* One live connection for the whole signed-in session (CONTRACT §7). */}
      <LiveMessages />
      <SignedInRoutes />
    </>
  );
}

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
      <Route path="/settings" component={AccountSettingsPage} />
      <Route path="/settings/delete-account" component={DeleteAccountPage} />
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/unsubscribe" component={UnsubscribePage} />
      <Route path="/messages" component={MessagesPage} />
      <Route path="/terms-of-service" component={TermsOfServicePage} />
      <Route path="/privacy-policy" component={PrivacyPolicyPage} />
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
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/unsubscribe" component={UnsubscribePage} />
      <Route path="/terms-of-service" component={TermsOfServicePage} />
      <Route path="/privacy-policy" component={PrivacyPolicyPage} />
      <Route>
        <Redirect to="/auth" replace />
      </Route>
    </Switch>
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
