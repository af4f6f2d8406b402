import { TIERS, statusLabel, type PricingTier } from '@shared/submissions';
import { Badge, type BadgeProps } from '@client/components/ui/badge';

const STATUS_VARIANTS: Record<string, BadgeProps['variant']> = {
  approved: 'success',
  completed: 'success',
  in_creation: 'default',
  under_review: 'warning',
  pending: 'secondary',
  payment_pending: 'warning',
  payment_failed: 'destructive',
  rejected: 'destructive',
  archived: 'outline',
  draft: 'outline',
};

export function AdminStatusBadge({ status }: { status: string | null | undefined }) {
  return <Badge variant={STATUS_VARIANTS[status ?? ''] ?? 'outline'}>{statusLabel(status)}</Badge>;
}

/** The real price of a paid submission ('$49 USD', '$99 USD', '$199 USD'), else 'Free' (CONTRACT preamble). */
export function tierPriceLabel(tier: string, amount: string | null): string {
  const price = amount !== null && Number(amount) > 0 ? Number(amount) : (TIERS[tier as PricingTier]?.priceUsd ?? 0);
  if (tier === 'free' || price <= 0) return 'Free';
  return `$${Number.isInteger(price) ? price : price.toFixed(2)} USD`;
}

export function TierBadge({ tier, amount }: { tier: string; amount: string | null }) {
  const label = tierPriceLabel(tier, amount);
  return <Badge variant={label === 'Free' ? 'outline' : 'default'}>{label}</Badge>;
}
