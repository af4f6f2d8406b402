import { Check, Clock } from 'lucide-react';
import type { Agreement } from '@shared/rights';
import { OWNER_ROLE_LABELS, SIGNATURE_STATE_TEXTS, type EsignDisclosure } from '@shared/rights-texts';
import { Badge } from '@client/components/ui/badge';
import { formatLongDateTime } from '@client/lib/format';
import { cn } from '@client/lib/utils';

export const AGREEMENT_STATUS_LABELS: Record<Agreement['status'], string> = {
  unsigned: 'Not signed yet',
  partly_signed: 'Partly signed',
  signed: 'Signed by every owner',
};

/**
 * The agreement as it is signed: its exact text, its SHA-256, and each owner's signature so far.
 * `reader` words each waiting signature for who reads it (the artist signs the first line and for
 * the owners without an email; a co-owner reads that the artist does). In a dialog the text
 * scrolls in its own box; on a page (`contained={false}`) it is part of the page, so a phone does
 * not scroll a box inside a scrolling page.
 */
export function AgreementView({ agreement, reader = 'artist', contained = true }: { agreement: Agreement; reader?: 'artist' | 'owner'; contained?: boolean }) {
  const signed = agreement.signatures.filter((s) => s.signedAt).length;
  const waiting = SIGNATURE_STATE_TEXTS[reader];
  return (
    <div className="grid gap-3">
      <pre
        className={cn(
          'rounded-md border bg-background/60 p-3 font-sans text-xs leading-relaxed break-words whitespace-pre-wrap',
          contained && 'max-h-72 overflow-y-auto',
        )}
        tabIndex={contained ? 0 : undefined}
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
            <span className="min-w-0 font-medium break-words">
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
                  {i === 0 ? waiting.own : s.hasEmail ? waiting.byLink : waiting.onBehalf}
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The consumer disclosure for electronic records (CONTRACT §22, decision 189), shown to every signer above the consent they tick. */
export function EsignDisclosureView({ disclosure }: { disclosure: EsignDisclosure }) {
  return (
    <section className="grid gap-2 rounded-md border border-border/60 bg-background/60 p-3 text-xs leading-relaxed" aria-labelledby="esign-disclosure-title" data-testid="esign-disclosure">
      <h3 id="esign-disclosure-title" className="text-sm font-semibold">
        {disclosure.title}
      </h3>
      {disclosure.text.split('\n').map((paragraph, i) => (
        <p key={i}>{paragraph}</p>
      ))}
    </section>
  );
}
