import { PAYMENT_STATE_LABELS, paymentStateOf, type PaymentState } from '@shared/submissions';
import type { Submission } from '@shared/submission-schemas';

type PaymentTypeVariant = 'default' | 'secondary' | 'warning' | 'destructive';

const TYPE_VARIANTS: Record<PaymentState, PaymentTypeVariant> = {
  free: 'secondary',
  paid: 'default',
  unpaid: 'warning',
  failed: 'destructive',
  refunded: 'secondary',
};

/**
 * SPEC §2's Type column, told truthfully by the desk's own payment rule: a paid plan is "Paid" only
 * once the payment went through, "Unpaid" while it is due, "Refunded" once the money went back
 * (issue 11). A free plan keeps SPEC's "Free".
 */
export function paymentTypeOf(s: Pick<Submission, 'pricingTier' | 'paymentStatus'>): { label: string; variant: PaymentTypeVariant } {
  const state = paymentStateOf(s.pricingTier, s.paymentStatus);
  return { label: state === 'free' ? 'Free' : PAYMENT_STATE_LABELS[state], variant: TYPE_VARIANTS[state] };
}
