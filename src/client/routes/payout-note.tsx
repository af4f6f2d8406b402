import { Link } from 'wouter';
import { PAYOUTS_RETURN_PATH } from '@shared/payouts';
import { usePayoutAccount } from '@client/features/payments/payouts-api';

const billingLink = (text: string) => (
  <Link href={PAYOUTS_RETURN_PATH} className="underline underline-offset-2 hover:text-foreground">
    {text}
  </Link>
);

/**
 * Under the bonus card: whether the artist's payout account is ready (CONTRACT §19). The card
 * said nothing of it, and an earning then waited for an account nobody had asked for (issue 36).
 * It combines the dashboard's card and the payments feature's account, so it lives here.
 */
export function PayoutNote() {
  const account = usePayoutAccount();
  const status = account.data?.status;
  if (!status) return null;
  return (
    <p className="text-xs text-muted-foreground" data-testid="bonus-payout-note">
      {status === 'active' ? (
        <>Your payout account with Stripe is ready: bonuses are paid into it.</>
      ) : status === 'pending' ? (
        <>Stripe is still checking your payout account; bonuses are paid once it is ready: {billingLink('see Billing')}.</>
      ) : (
        <>Bonuses are paid into a payout account with Stripe, which you have not set up yet: {billingLink('set up payouts in Billing')}.</>
      )}
    </p>
  );
}
