import { Receipt } from 'lucide-react';
import type { Submission } from '@shared/submission-schemas';
import { PROCESSING_FEE_USD, TIERS, formatUsd, tierAmount } from '@shared/submissions';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import { Separator } from '@client/components/ui/separator';
import { orderIdOf } from '@shared/payments';
import { DescriptionRow } from '@client/components/description-row';
import { PlanPromiseList } from '@client/components/plan-promise-list';
import { PLAN_SUMMARIES } from '@shared/plans';
import { includedVatCents } from '@shared/billing';
import { usePublicConfig } from '@client/lib/public-config';

/** The order: which submission, which plan, what it costs (SPEC §2 "Checkout", §9). */
export function OrderSummary({ submission }: { submission: Submission }) {
  const tier = TIERS[submission.pricingTier];
  const price = tierAmount(submission.pricingTier);
  const total = (Number(price) + PROCESSING_FEE_USD).toFixed(2);
  // The invoice shows the VAT the price includes (VAT_RATE); the checkout says so before the artist pays.
  const vatRate = usePublicConfig().data?.vatRatePercent ?? null;
  const vat = vatRate === null ? null : (includedVatCents(Math.round(Number(total) * 100), vatRate) / 100).toFixed(2);
  return (
    <Card role="region" aria-labelledby="order-summary-title">
      <CardHeader>
        <CardTitle id="order-summary-title" className="flex items-center gap-2">
          <Receipt className="size-5 text-primary-soft" aria-hidden />
          Order Summary
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-3 text-sm">
          <DescriptionRow layout="inline" term="Order ID">
            <span className="font-mono">#{orderIdOf(submission.id)}</span>
          </DescriptionRow>
          <DescriptionRow layout="inline" term="Track">
            <span className="break-words">
              {submission.songTitle} <span className="text-muted-foreground">by {submission.artistName}</span>
            </span>
          </DescriptionRow>
          <DescriptionRow layout="inline" term="Plan">{tier.name}</DescriptionRow>
        </dl>
        <div className="grid gap-2 rounded-lg bg-muted/60 p-3">
          <p className="text-sm" data-testid="plan-summary">{PLAN_SUMMARIES[submission.pricingTier]}</p>
          <PlanPromiseList tier={submission.pricingTier} />
        </div>
        <Separator />
        <dl className="grid gap-2 text-sm">
          <DescriptionRow layout="inline" term={`${tier.name} plan`}>{formatUsd(price)}</DescriptionRow>
          <DescriptionRow layout="inline" term="Processing fee">{formatUsd(PROCESSING_FEE_USD)}</DescriptionRow>
        </dl>
        <Separator />
        <div className="flex items-baseline justify-between gap-4">
          <span className="font-medium">Total</span>
          <span className="text-2xl font-semibold" data-testid="order-total">
            {formatUsd(total)} <span className="text-sm font-normal text-muted-foreground">USD</span>
          </span>
        </div>
        {vat !== null ? (
          <p className="text-right text-xs text-muted-foreground" data-testid="order-vat">
            VAT included ({vatRate}%): {formatUsd(vat)}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

