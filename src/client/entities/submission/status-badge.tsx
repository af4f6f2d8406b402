import { statusLabel, type SubmissionStatus } from '@shared/submissions';
import { Badge, type BadgeProps } from '@client/components/ui/badge';

/** One colour per status, the same on the artist's dashboard and the admin desk. */
const VARIANTS: Record<SubmissionStatus, BadgeProps['variant']> = {
  approved: 'success',
  completed: 'success',
  published: 'success',
  in_creation: 'default',
  under_review: 'warning',
  /** The artist has something to do: a new version to send (CONTRACT §27). */
  changes_requested: 'warning',
  pending: 'secondary',
  payment_pending: 'warning',
  payment_failed: 'destructive',
  rejected: 'destructive',
  archived: 'outline',
  draft: 'outline',
};

export function StatusBadge({ status }: { status: string | null | undefined }) {
  return <Badge variant={(VARIANTS as Record<string, BadgeProps['variant']>)[status ?? ''] ?? 'outline'}>{statusLabel(status)}</Badge>;
}
