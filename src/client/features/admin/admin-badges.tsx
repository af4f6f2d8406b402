import type { ScreenStatus } from '@shared/production';
import { TIERS, type PricingTier } from '@shared/submissions';
import { deskPublishingLabel } from '@shared/production-texts';
import type { DeskPublishing, Submission } from '@shared/submission-schemas';
import { decisionByText } from '@shared/decisions';
import { awaitsDecision } from '@client/entities/submission/decision-date';
import { RIGHTS_STATE_LABELS, type DeskRightsState } from '@shared/rights';
import { CircleAlert } from 'lucide-react';
import { Badge } from '@client/components/ui/badge';

/** The real price of a paid submission ('$49 USD', '$99 USD', '$199 USD'), else 'Free' (CONTRACT preamble). */
export function tierPriceLabel(tier: PricingTier, amount: string | null): string {
  const price = amount !== null && Number(amount) > 0 ? Number(amount) : TIERS[tier].priceUsd;
  if (tier === 'free' || price <= 0) return 'Free';
  return `$${Number.isInteger(price) ? price : price.toFixed(2)} USD`;
}

export function TierBadge({ tier, amount }: { tier: PricingTier; amount: string | null }) {
  const label = tierPriceLabel(tier, amount);
  return <Badge variant={label === 'Free' ? 'outline' : 'default'}>{label}</Badge>;
}

/** A publication the team should know of, in the list (issue 36): retrying, or failed and why; the advice in its tooltip. */
export function PublishingBadge({ publishing, className }: { publishing: DeskPublishing | null; className?: string }) {
  const label = publishing ? deskPublishingLabel(publishing) : null;
  if (!publishing || !label) return null;
  const advice = label.failed ? publishing.advice : null;
  return (
    <Badge variant={label.failed ? 'destructive' : 'outline'} title={advice ?? undefined} className={className} data-testid="desk-publishing">
      {label.text}
    </Badge>
  );
}

/**
 * Where the rights stand (CONTRACT §22, issue 43 item 9): what publishing waits for, from approval
 * on; nothing before. "Rights complete" in green, anything still owed in amber.
 */
export function RightsBadge({ rights, className }: { rights: DeskRightsState | null; className?: string }) {
  if (!rights) return null;
  return (
    <Badge variant={rights === 'complete' ? 'success' : 'warning'} className={className} data-testid="desk-rights" data-rights={rights}>
      {RIGHTS_STATE_LABELS[rights]}
    </Badge>
  );
}

/** A hit the viral screen found suspect (CONTRACT §25): it waits for the team's decision. Nothing otherwise. */
export function ViralScreenBadge({ viralScreen, className }: { viralScreen: ScreenStatus | null; className?: string }) {
  if (viralScreen !== 'suspect') return null;
  return (
    <Badge variant="warning" className={className} data-testid="desk-viral">
      Suspect viral hit
    </Badge>
  );
}
/**
 * The decision the label promised (CONTRACT §26), while the submission waits for one: red once
 * the date has passed (the overdue ones stand out), else the date.
 */
export function DecisionBadge({ submission, className }: { submission: Pick<Submission, 'status' | 'decisionDueAt'>; className?: string }) {
  if (!awaitsDecision(submission)) return null;
  const overdue = new Date(submission.decisionDueAt!).getTime() < Date.now();
  return (
    <Badge variant={overdue ? 'destructive' : 'outline'} className={className} data-testid="desk-decision" data-overdue={overdue || undefined}>
      {overdue ? 'Decision overdue' : decisionByText(formatShortDate(submission.decisionDueAt!))}
    </Badge>
  );
}

/**
 * The same date as the list's Due column shows it (a laptop's desk keeps one line a row, CONTRACT
 * §14): plain text, red with a mark once overdue. Null when the submission waits for no decision.
 */
export function DecisionDue({ submission }: { submission: Pick<Submission, 'status' | 'decisionDueAt'> }) {
  if (!awaitsDecision(submission)) return null;
  const overdue = new Date(submission.decisionDueAt!).getTime() < Date.now();
  const date = formatShortDate(submission.decisionDueAt!);
  // As short as the delivery dates beside it ("Nov 28"); the words are read out and shown on hover.
  return (
    <span
      className={overdue ? 'font-medium text-destructive' : 'text-foreground'}
      data-testid="desk-decision"
      data-overdue={overdue || undefined}
      title={overdue ? `Decision overdue: was due ${date}` : decisionByText(date)}
    >
      {overdue ? <CircleAlert className="mr-0.5 inline size-3 align-[-2px]" aria-hidden /> : null}
      <span className="sr-only">{overdue ? 'Decision overdue, was due ' : 'Decision by '}</span>
      {date}
    </span>
  );
}

const formatShortDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
