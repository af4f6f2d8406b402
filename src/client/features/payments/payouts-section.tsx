import { useEffect, useRef } from 'react';
import { CircleCheck, ExternalLink, Landmark } from 'lucide-react';
import { useSearch } from 'wouter';
import { PAYOUTS_QUERY, PAYOUTS_REFRESH, PAYOUTS_RETURN, PAYOUT_TEXTS, type PayoutAccountStatus } from '@shared/payouts';
import { Badge, type BadgeProps } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { errorMessage } from '@client/lib/api';
import { usePayoutAccount, useStartPayouts } from './payouts-api';

const BADGE: Record<PayoutAccountStatus, BadgeProps['variant']> = { none: 'secondary', pending: 'warning', active: 'success' };

/**
 * The artist's bonus payouts on /settings/billing (CONTRACT §19): the state of their Stripe
 * Express account, and the way into Stripe's onboarding. Stripe sends the artist back with
 * `?payouts=return` (the state is then polled until `account.updated` has arrived) or, when the
 * link has expired, `?payouts=refresh`, which opens a fresh link at once.
 */
export function PayoutsSection() {
  const from = new URLSearchParams(useSearch()).get(PAYOUTS_QUERY);
  const account = usePayoutAccount({ pollWhilePending: from === PAYOUTS_RETURN });
  const start = useStartPayouts();
  const refreshed = useRef(false);
  useEffect(() => {
    if (from === PAYOUTS_REFRESH && !refreshed.current) {
      refreshed.current = true;
      start.mutate();
    }
  }, [from, start]);

  const status = account.data?.status;
  return (
    <Card id="payouts" data-testid="payouts-section" aria-busy={account.isPending}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <Landmark className="size-5 text-primary-soft" aria-hidden />
          {PAYOUT_TEXTS.title}
          {status ? (
            <Badge variant={BADGE[status]} data-testid="payout-status">
              {status === 'active' ? <CircleCheck aria-hidden /> : null}
              {PAYOUT_TEXTS.status[status]}
            </Badge>
          ) : null}
        </CardTitle>
        <CardDescription>{PAYOUT_TEXTS.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {account.isError ? <p className="text-destructive-soft">{errorMessage(account.error)}</p> : null}
        {status ? <p>{from === PAYOUTS_RETURN && status === 'pending' ? PAYOUT_TEXTS.returned : PAYOUT_TEXTS.explain[status]}</p> : null}
        {start.isError ? (
          <p role="alert" className="text-destructive-soft">
            {errorMessage(start.error)}
          </p>
        ) : null}
        {status && status !== 'active' ? (
          <div>
            <Button onClick={() => start.mutate()} disabled={start.isPending || start.isSuccess}>
              <ExternalLink aria-hidden />
              {start.isPending || start.isSuccess ? PAYOUT_TEXTS.opening : status === 'none' ? PAYOUT_TEXTS.connect : PAYOUT_TEXTS.finish}
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
