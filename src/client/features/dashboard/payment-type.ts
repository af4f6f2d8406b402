import { PAYMENT_STATE_LABELS, TIERS, paymentStateOf, type PaymentState } from '@shared/submissions';
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
export function paymentTypeOf(
  s: Pick<Submission, 'pricingTier' | 'paymentStatus'> & Partial<Pick<Submission, 'status' | 'draftStep' | 'submissionType'>>,
): { label: string; variant: PaymentTypeVariant } {
  // A draft has no payment yet, and until the wizard's plan step no plan either: its stored
  // default read "Free" on a draft that had chosen nothing (issue 36).
  if (s.status === 'draft') {
    const chosen = (s.draftStep ?? 0) >= planStepOf(s.submissionType);
    return { label: chosen ? `${TIERS[s.pricingTier].name} plan` : 'No plan yet', variant: 'secondary' };
  }
  const state = paymentStateOf(s.pricingTier, s.paymentStatus);
  return { label: state === 'free' ? 'Free' : PAYMENT_STATE_LABELS[state], variant: TYPE_VARIANTS[state] };
}

/** The wizard's plan step, 1-based: Video Style comes before it for a track, not for a finished video. */
const planStepOf = (type: Submission['submissionType'] | undefined) => (type === 'video' ? 3 : 4);
