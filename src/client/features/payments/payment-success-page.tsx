import { PlaceholderPage } from '@client/components/placeholder-page';

export function PaymentSuccessPage() {
  return <PlaceholderPage title="Payment Successful!" summary="Your payment confirmation and receipt will be shown here." />;
}
