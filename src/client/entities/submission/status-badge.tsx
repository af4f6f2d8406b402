import { statusLabel } from '@shared/submissions';
import { Badge, type BadgeProps } from '@client/components/ui/badge';

/** One colour per status, the same on the artist's dashboard and the admin desk. */
const VARIANTS: Record<string, BadgeProps['variant']> = {
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

export function StatusBadge({ status }: { status: string | null | undefined }) {
  return <Badge variant={VARIANTS[status ?? ''] ?? 'outline'}>{statusLabel(status)}</Badge>;
}
