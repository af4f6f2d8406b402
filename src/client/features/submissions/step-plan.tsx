import { useEffect } from 'react';
import { REJECTION_REFUND_PROMISE } from '@shared/billing';
import { Controller } from 'react-hook-form';
import { PLANS_INTRO, PLAN_SUMMARIES, VIDEO_PLAN_TEXT, plansFor } from '@shared/plans';
import { PlanPromiseList } from '@client/components/plan-promise-list';
import { PROCESSING_FEE_USD, TIERS, formatUsd, type PricingTier } from '@shared/submissions';
import { RadioGroup, RadioGroupItem } from '@client/components/ui/radio-group';
import { cn } from '@client/lib/utils';
import type { WizardForm } from './wizard-form';

/**
 * Step 4: the plans of SPEC §9, each saying what it buys (src/shared/plans.ts). A finished video
 * is offered the Free plan only, with the reason (decision 154).
 */
export function StepPlan({ form }: { form: WizardForm }) {
  const type = form.watch('submissionType');
  const tier = form.watch('pricingTier');
  const plans = plansFor(type);
  // A plan chosen before the artist switched to a finished video is not one it can take.
  useEffect(() => {
    if (!plans.includes(tier)) form.setValue('pricingTier', plans[0]!, { shouldDirty: true });
  }, [plans, tier, form]);

  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground" data-testid="plans-intro">
        {type === 'video' ? VIDEO_PLAN_TEXT : PLANS_INTRO}
      </p>
      <Controller
        control={form.control}
        name="pricingTier"
        render={({ field }) => (
          <RadioGroup aria-label="Plan" value={field.value} onValueChange={(v) => field.onChange(v as PricingTier)} className="grid gap-3 sm:grid-cols-2">
            {plans.map((plan) => {
              const info = TIERS[plan];
              const selected = field.value === plan;
              return (
                // A label may hold only phrasing content: the promises (a list) sit beside it in the card,
                // and a click anywhere on the card still picks the plan.
                <div
                  key={plan}
                  onClick={() => field.onChange(plan)}
                  className={cn('grid cursor-pointer content-start gap-2 rounded-lg border bg-background/40 p-4 transition-colors hover:border-primary/50', selected && 'border-primary bg-primary/10')}
                >
                  <label htmlFor={`tier-${plan}`} className="flex cursor-pointer gap-3">
                    <RadioGroupItem id={`tier-${plan}`} value={plan} className="mt-1" aria-describedby={`tier-${plan}-summary`} />
                    <span className="grid flex-1 content-start gap-2">
                      <span className="flex items-baseline justify-between gap-2">
                        <span className="font-semibold">{info.name}</span>
                        <span className="text-lg font-semibold tabular-nums">{formatUsd(info.priceUsd)}</span>
                      </span>
                      <span id={`tier-${plan}-summary`} className="text-sm">
                        {PLAN_SUMMARIES[plan]}
                      </span>
                    </span>
                  </label>
                  <PlanPromiseList tier={plan} className="pl-7" />
                </div>
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
