import { useId } from 'react';
import { RIGHTS_OVERRIDE_TEXTS, RIGHTS_PART_LABELS } from '@shared/rights';
import { Label } from '@client/components/ui/label';
import { Textarea } from '@client/components/ui/textarea';
import { useRights } from './rights-queries';

/**
 * The publishing gate on the desk's publish forms (CONTRACT §22): while the rights are incomplete
 * it says what publishing waits for and offers the admin's override, a reason the server records
 * in the history. Nothing shows once the rights are complete.
 */
export function RightsOverrideField({ submissionId, reason, onReason }: { submissionId: string; reason: string; onReason: (reason: string) => void }) {
  const id = useId();
  const rights = useRights(submissionId);
  const missing = rights.data?.missing ?? [];
  if (missing.length === 0) return null;
  return (
    <div className="grid gap-1.5 rounded-md border border-warning/40 bg-warning/5 p-2.5" data-testid="rights-override">
      <p className="text-sm font-medium">{RIGHTS_OVERRIDE_TEXTS.waiting(missing.map((m) => RIGHTS_PART_LABELS[m]).join(' and '))}</p>
      <Label htmlFor={`${id}-reason`}>{RIGHTS_OVERRIDE_TEXTS.label}</Label>
      <Textarea id={`${id}-reason`} rows={2} maxLength={500} value={reason} onChange={(e) => onReason(e.target.value)} aria-describedby={`${id}-hint`} />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {RIGHTS_OVERRIDE_TEXTS.hint}
      </p>
    </div>
  );
}

export type RightsOverride = { override?: { reason: string } };

/** What a publish request carries: the override only when a reason was given. */
export const overrideOf = (reason: string): RightsOverride => (reason.trim() ? { override: { reason: reason.trim() } } : {});
