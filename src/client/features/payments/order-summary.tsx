import { Receipt } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Submission } from '@shared/submission-schemas';
import { PROCESSING_FEE_USD, TIERS, formatUsd, tierAmount } from '@shared/submissions';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import { Separator } from '@client/components/ui/separator';
import { orderIdOf } from '@shared/payments';

/** The order: which submission, which plan, what it costs (SPEC §2 "Checkout", §9). */
export function OrderSummary({ submission }: { submission: Submission }) {
  const tier = TIERS[submission.pricingTier];
  const price = tierAmount(submission.pricingTier);
  const total = (Number(price) + PROCESSING_FEE_USD).toFixed(2);
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
          <Row term="Order ID">
            <span className="font-mono">#{orderIdOf(submission.id)}</span>
          </Row>
          <Row term="Track">
            <span className="break-words">
              {submission.songTitle} <span className="text-muted-foreground">by {submission.artistName}</span>
            </span>
          </Row>
          <Row term="Plan">{tier.name}</Row>
        </dl>
        <ul className="grid gap-1 rounded-lg bg-muted/60 p-3 text-sm text-muted-foreground">
          {tier.promises.map((promise) => (
            <li key={promise}>• {promise}</li>
          ))}
        </ul>
        <Separator />
        <dl className="grid gap-2 text-sm">
          <Row term={`${tier.name} plan`}>{formatUsd(price)}</Row>
          <Row term="Processing fee">{formatUsd(PROCESSING_FEE_USD)}</Row>
        </dl>
        <Separator />
        <div className="flex items-baseline justify-between gap-4">
          <span className="font-medium">Total</span>
          <span className="text-2xl font-semibold" data-testid="order-total">
            {formatUsd(total)} <span className="text-sm font-normal text-muted-foreground">USD</span>
          </span>
        </div>
      </CardContent>
    </Card>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="shrink-0 text-muted-foreground">{term}</dt>
      <dd className="min-w-0 text-right">{children}</dd>
    </div>
  );
}
