import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@shared/api';

/** GET /api/config (CONTRACT §6): what this installation has configured (Stripe, Google). */
export function usePublicConfig() {
  return useQuery<PublicConfig>({ queryKey: ['/api/config'] });
}
