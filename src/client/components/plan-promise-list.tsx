import { Check } from 'lucide-react';
import { planPromises } from '@shared/plans';
import type { PricingTier } from '@shared/submissions';
import { cn } from '@client/lib/utils';

/** SPEC's promise texts as they are, each with what it means; also on the checkout's order summary. */
export function PlanPromiseList({ tier, className }: { tier: PricingTier; className?: string }) {
  return (
    <ul className={cn('grid gap-1.5', className)}>
      {planPromises(tier).map(({ text, explanation }) => (
        <li key={text} className="flex gap-2 text-sm">
          <Check className="mt-0.5 size-3.5 shrink-0 text-primary-soft" aria-hidden />
          <span>
            <span className="font-medium">{text}</span>
            {explanation ? <span className="text-muted-foreground"> — {explanation}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
