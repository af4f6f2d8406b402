import { PlaceholderPage } from '@client/components/placeholder-page';

export function PaymentFailurePage() {
  return <PlaceholderPage title="Payment Failed" summary="What went wrong with a payment, and how to try again, will be shown here." />;
}
