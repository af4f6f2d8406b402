import { Check, Download, FileText, ShieldAlert, ShieldCheck, Undo2 } from 'lucide-react';
import { WORK_END_LABELS, type WorkEnd } from '@shared/production';
import { CONTENT_ID_LABELS, OWNER_ROLE_LABELS, RIGHTS_PART_LABELS, formatIsrc } from '@shared/rights';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { formatLongDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { AGREEMENT_STATUS_LABELS } from './agreement-view';
import { agreementPdfUrl, allowlistLetterUrl, evidencePackUrl, releasePackageUrl, useMarkAllowlist, useRights } from './rights-queries';

const RIGHTS_PANEL_TEXTS = {
  /** Issue 43: a bare "Undo" said neither what it undoes nor that it is a button. */
  undoAllowlist: 'Mark allowlist not done',
  allowlistMoot: (end: string) => `Not marked done; no longer needed: ${end}.`,
} as const;

/**
 * The desk's rights step (CONTRACT §22): who owns the song, where the licence agreement stands,
 * Content ID with the letter to the distributor and its "done", and what publishing still waits
 * for. Publishing itself stays in the production panel; the server refuses it until this is done.
 */
export function RightsPanel({ submissionId, ended = null }: { submissionId: string; ended?: WorkEnd | null }) {
  const rights = useRights(submissionId);
  const allowlist = useMarkAllowlist(submissionId);
  if (rights.isLoading) return <Spinner label="Loading the rights" />;
  if (!rights.data) return <p className="text-sm text-muted-foreground">The rights could not be loaded.</p>;
  const r = rights.data;
  const ready = r.missing.length === 0;
  const mark = (done: boolean) =>
    allowlist.mutate(done, {
      onSuccess: () => toast({ title: done ? 'Allowlist marked done' : 'Allowlist marked not done' }),
      onError: (error) => toast({ title: 'Not saved', description: errorMessage(error), variant: 'destructive' }),
    });
  return (
    <section aria-labelledby="rights-heading" className="grid gap-4 rounded-lg border p-4" data-testid="rights-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="rights-heading" className="flex items-center gap-2 text-sm font-semibold">
          {ready ? <ShieldCheck className="size-4 text-success" aria-hidden /> : <ShieldAlert className="size-4 text-warning" aria-hidden />}
          Rights before release
        </h3>
        {/* Turned down, refunded or published: nothing waits for the rights any more (issue 43 item 10). */}
        <Badge variant={ready ? 'success' : ended ? 'secondary' : 'warning'} className="whitespace-normal" data-testid="rights-state">
          {ready
            ? ended === 'published'
              ? 'Published with the rights complete'
              : 'Ready to publish'
            : ended
              ? `Nothing to do: ${WORK_END_LABELS[ended]}`
              : `Waiting for ${r.missing.map((m) => RIGHTS_PART_LABELS[m]).join(' and ')}`}
        </Badge>
      </div>

      <div className="grid gap-1.5">
        <p className="text-xs text-muted-foreground">Owners</p>
        <ul className="grid gap-1 text-sm">
          {r.owners.map((o, i) => (
            <li key={i} className="flex flex-wrap justify-between gap-x-3">
              <span>
                {o.name} <span className="text-muted-foreground">· {OWNER_ROLE_LABELS[o.role]}</span>
              </span>
              <span className="tabular-nums">{o.share}%</span>
            </li>
          ))}
        </ul>
      </div>

      <div className="grid gap-1.5">
        <p className="text-xs text-muted-foreground">Licence agreement</p>
        {r.agreement ? (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Badge variant={r.agreement.status === 'signed' ? 'success' : 'warning'}>{AGREEMENT_STATUS_LABELS[r.agreement.status]}</Badge>
            <a className="inline-flex items-center gap-1 text-primary-soft underline-offset-4 hover:underline" href={agreementPdfUrl(submissionId)} download>
              <FileText className="size-4" aria-hidden /> agreement.pdf
            </a>
            <span className="w-full text-[11px] break-all text-muted-foreground">SHA-256 {r.agreement.sha256}</span>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Made once the submission is approved; the artist is then asked to sign.</p>
        )}
      </div>

      <div className="grid gap-1.5">
        <p className="text-xs text-muted-foreground">Content ID</p>
        <p className="text-sm">
          {CONTENT_ID_LABELS[r.contentId]}
          {r.distributor ? ` · ${r.distributor}` : ''}
          {r.isrc ? ` · ISRC ${formatIsrc(r.isrc)}` : ''}
        </p>
        {r.allowlistNeeded ? (
          <div className="grid gap-2 rounded-md border border-border/60 p-3" data-testid="allowlist-step">
            <p className="text-sm">
              Ask the distributor to allowlist the channel for this song, at least 48 hours before publishing, with this letter as proof of the licence.
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <Button asChild variant="outline" size="sm">
                <a href={allowlistLetterUrl(submissionId)} download>
                  <Download className="size-4" aria-hidden /> Allowlist letter (PDF)
                </a>
              </Button>
              {r.allowlistDoneAt ? (
                <>
                  <span className="flex items-center gap-1 text-sm text-success">
                    <Check className="size-4" aria-hidden /> Done {formatLongDateTime(r.allowlistDoneAt)}
                  </span>
                  {ended ? null : (
                    <Button variant="outline" size="sm" onClick={() => mark(false)} disabled={allowlist.isPending}>
                      <Undo2 aria-hidden />
                      {RIGHTS_PANEL_TEXTS.undoAllowlist}
                    </Button>
                  )}
                </>
              ) : ended ? (
                <span className="text-sm text-muted-foreground">{RIGHTS_PANEL_TEXTS.allowlistMoot(WORK_END_LABELS[ended])}</span>
              ) : (
                <Button size="sm" onClick={() => mark(true)} disabled={allowlist.isPending}>
                  Mark allowlist done
                </Button>
              )}
            </div>
          </div>
        ) : (
          <p className="text-xs text-muted-foreground">Not in Content ID: no allowlist needed.</p>
        )}
      </div>

      <div className="grid gap-1.5" data-testid="handover">
        <p className="text-xs text-muted-foreground">Handover</p>
        <div className="flex flex-wrap items-center gap-2">
          {r.agreement?.status === 'signed' ? (
            <Button asChild variant="outline" size="sm">
              <a href={releasePackageUrl(submissionId)} download>
                <Download className="size-4" aria-hidden /> Release package (DDEX ZIP)
              </a>
            </Button>
          ) : (
            <span className="text-sm text-muted-foreground">The release package waits for every owner’s signature.</span>
          )}
          <Button asChild variant="outline" size="sm">
            <a href={evidencePackUrl(submissionId)} download>
              <Download className="size-4" aria-hidden /> Evidence pack (ZIP)
            </a>
          </Button>
        </div>
      </div>
    </section>
  );
}
