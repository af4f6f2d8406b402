import { Check, Clock } from 'lucide-react';
import type { Agreement } from '@shared/rights';
import { OWNER_ROLE_LABELS } from '@shared/rights-texts';
import { Badge } from '@client/components/ui/badge';
import { formatLongDateTime } from '@client/lib/format';

export const AGREEMENT_STATUS_LABELS: Record<Agreement['status'], string> = {
  unsigned: 'Not signed yet',
  partly_signed: 'Partly signed',
  signed: 'Signed by every owner',
};

/** The agreement as it is signed: its exact text, its SHA-256, and each owner's signature so far. */
export function AgreementView({ agreement }: { agreement: Agreement }) {
  const signed = agreement.signatures.filter((s) => s.signedAt).length;
  return (
    <div className="grid gap-3">
      <pre
        className="max-h-72 overflow-y-auto rounded-md border bg-background/60 p-3 font-sans text-xs leading-relaxed whitespace-pre-wrap"
        tabIndex={0}
        aria-label="The licence agreement"
        data-testid="agreement-text"
      >
        {agreement.text}
      </pre>
      <p className="text-[11px] break-all text-muted-foreground">SHA-256 {agreement.sha256}</p>
      <div className="flex items-center gap-2 text-sm font-medium">
        <Badge variant={agreement.status === 'signed' ? 'success' : 'warning'}>{AGREEMENT_STATUS_LABELS[agreement.status]}</Badge>
        <span className="text-muted-foreground">
          {signed} of {agreement.signatures.length} owners
        </span>
      </div>
      <ul className="grid gap-1.5 text-sm" data-testid="agreement-signatures">
        {agreement.signatures.map((s, i) => (
          <li key={i} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-0.5 rounded-md border border-border/60 px-3 py-2">
            <span className="font-medium">
              {s.name} <span className="font-normal text-muted-foreground">· {OWNER_ROLE_LABELS[s.role]} · {s.share}%</span>
            </span>
            <span className="flex items-center gap-1 text-xs text-muted-foreground">
              {s.signedAt ? (
                <>
                  <Check className="size-3.5 text-success" aria-hidden />
                  {s.onBehalf ? 'Signed on their behalf' : 'Signed'} {formatLongDateTime(s.signedAt)}
                </>
              ) : (
                <>
                  <Clock className="size-3.5" aria-hidden />
                  {s.hasEmail ? 'Signs from a link sent by email' : 'Signed for by the artist'}
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
