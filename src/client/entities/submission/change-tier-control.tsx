import { useMutation } from '@tanstack/react-query';
import { ArrowRightLeft } from 'lucide-react';
import { useEffect, useState } from 'react';
import { plansFor } from '@shared/plans';
import type { Submission } from '@shared/submission-schemas';
import { TIERS, formatUsd, type PricingTier } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { apiRequest, errorMessage } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';
import { toast } from '@client/lib/toast';

interface ChangeTierControlProps {
  submission: Pick<Submission, 'id' | 'pricingTier' | 'songTitle' | 'submissionType'>;
  /** After the change: where to go next depends on the page (a free plan has nothing to pay). */
  onChanged?: (tier: PricingTier) => void;
  /** The box's padding: the checkout sets its cards' own, so the box lines up with them (issue 43). */
  className?: string;
}

/**
 * Another plan while the payment is due (CONTRACT §12), from the checkout and the details dialog.
 * Free needs no payment, so it also works when card payments are unavailable.
 */
export function ChangeTierControl({ submission, onChanged, className = 'p-3' }: ChangeTierControlProps) {
  // The dropdown shows the plan the submission is on until another is chosen, and again after a
  // change: the plan just chosen, marked as the current one (it showed the first option before).
  const [tier, setTier] = useState<PricingTier>(submission.pricingTier);
  useEffect(() => setTier(submission.pricingTier), [submission.pricingTier]);
  const change = useMutation({
    mutationFn: (pricingTier: PricingTier) =>
      apiRequest<void>('POST', `/api/submissions/${encodeURIComponent(submission.id)}/tier`, { pricingTier }),
    onSuccess: async (_data, pricingTier) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['/api/submissions'] }),
        queryClient.invalidateQueries({ queryKey: ['/api/stats'] }),
        queryClient.removeQueries({ queryKey: ['/api/create-payment-intent', submission.id] }),
      ]);
      const title = `"${submission.songTitle || 'Untitled'}"`;
      toast(
        pricingTier === 'free'
          ? { title: 'Switched to Free', description: `${title} needs no payment and was sent to the label.` }
          : { title: 'Plan changed', description: `${title} is now on ${TIERS[pricingTier].name}: pay ${formatUsd(TIERS[pricingTier].priceUsd)} to send it to the label.` },
      );
      onChanged?.(pricingTier);
    },
    onError: (error) => toast({ title: 'Plan not changed', description: errorMessage(error), variant: 'destructive' }),
  });
  const plans = plansFor(submission.submissionType);

  return (
    <div className={`grid gap-2 rounded-lg border ${className}`} data-testid="change-tier">
      <label htmlFor={`tier-${submission.id}`} className="text-sm font-medium">
        Change plan
      </label>
      <p className="text-xs text-muted-foreground">
        Now on {TIERS[submission.pricingTier].name}. Free needs no payment: the label reviews your submission with no timeline guarantee.
      </p>
      <div className="flex flex-wrap gap-2">
        <select
          id={`tier-${submission.id}`}
          value={tier}
          onChange={(event) => setTier(event.target.value as PricingTier)}
          className="h-9 min-w-[11rem] flex-1 rounded-md border border-input bg-background/60 px-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {plans.map((t) => (
            <option key={t} value={t}>
              {TIERS[t].name} · {formatUsd(TIERS[t].priceUsd)}
              {t === submission.pricingTier ? ' (current plan)' : ''}
            </option>
          ))}
        </select>
        <Button variant="outline" size="sm" className="h-9" onClick={() => change.mutate(tier)} disabled={change.isPending || tier === submission.pricingTier}>
          {change.isPending ? <Spinner /> : <ArrowRightLeft aria-hidden />}
          {tier === submission.pricingTier ? 'Choose another plan' : `Switch to ${TIERS[tier].name}`}
        </Button>
      </div>
    </div>
  );
}
