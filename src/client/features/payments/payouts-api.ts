import { useMutation, useQuery } from '@tanstack/react-query';
import type { PayoutAccountState, PayoutOnboardingLink } from '@shared/payouts';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';

/** Bonus payouts through Stripe Connect (CONTRACT §19): the artist's account, the team's transfer. */

const PAYOUT_ACCOUNT_KEY = ['/api/payouts/account'];
/** After Stripe's onboarding, the state is asked for again every few seconds until the webhook has arrived. */
const RETURN_POLL_MS = 3_000;

export function usePayoutAccount(options: { pollWhilePending?: boolean } = {}) {
  return useQuery<PayoutAccountState>({
    queryKey: PAYOUT_ACCOUNT_KEY,
    refetchOnMount: 'always',
    refetchInterval: (query) => (options.pollWhilePending && query.state.data?.status === 'pending' ? RETURN_POLL_MS : false),
  });
}

/** A fresh onboarding link (Stripe's links are used once); the browser goes there at once. */
export function useStartPayouts() {
  return useMutation({
    mutationFn: () => apiRequest<PayoutOnboardingLink>('POST', '/api/payouts/account'),
    onSuccess: ({ url }) => {
      void queryClient.invalidateQueries({ queryKey: PAYOUT_ACCOUNT_KEY });
      window.location.assign(url);
    },
  });
}
