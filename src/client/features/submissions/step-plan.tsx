import { Check } from 'lucide-react';
import { REJECTION_REFUND_PROMISE } from '@shared/billing';
import { Controller } from 'react-hook-form';
import { PRICING_TIERS, PROCESSING_FEE_USD, TIERS, formatUsd, type PricingTier } from '@shared/submissions';
import { RadioGroup, RadioGroupItem } from '@client/components/ui/radio-group';
import { cn } from '@client/lib/utils';
import type { WizardForm } from './wizard-form';

/** Step 4: the four plans of SPEC §9. */
export function StepPlan({ form }: { form: WizardForm }) {
  return (
    <div className="grid gap-4">
      <Controller
        control={form.control}
        name="pricingTier"
        render={({ field }) => (
          <RadioGroup aria-label="Plan" value={field.value} onValueChange={(v) => field.onChange(v as PricingTier)} className="grid gap-3 sm:grid-cols-2">
            {PRICING_TIERS.map((tier) => {
              const info = TIERS[tier];
              const selected = field.value === tier;
              return (
                <label
                  key={tier}
                  htmlFor={`tier-${tier}`}
                  className={cn('flex cursor-pointer gap-3 rounded-lg border bg-background/40 p-4 transition-colors hover:border-primary/50', selected && 'border-primary bg-primary/10')}
                >
                  <RadioGroupItem id={`tier-${tier}`} value={tier} className="mt-1" />
                  <span className="grid flex-1 gap-2">
                    <span className="flex items-baseline justify-between gap-2">
                      <span className="font-semibold">{info.name}</span>
                      <span className="text-lg font-semibold tabular-nums">{formatUsd(info.priceUsd)}</span>
                    </span>
                    <ul className="grid gap-1">
                      {info.promises.map((promise) => (
                        <li key={promise} className="flex items-center gap-2 text-sm text-muted-foreground">
                          <Check className="size-3.5 shrink-0 text-primary-soft" aria-hidden />
                          {promise}
                        </li>
                      ))}
                    </ul>
                  </span>
                </label>
              );
            })}
          </RadioGroup>
        )}
      />
      <p className="text-sm text-muted-foreground">Processing fee: {formatUsd(PROCESSING_FEE_USD)}</p>
      <p className="text-sm text-muted-foreground">{REJECTION_REFUND_PROMISE}</p>
    </div>
  );
}
