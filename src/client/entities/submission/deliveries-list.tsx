import { BadgeCheck, Download, FileArchive, FileImage } from 'lucide-react';
import type { DeliverableFile, ProductionState } from '@shared/production';
import { formatBytes } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { useConfirm } from '@client/components/ui/confirm-dialog';
import { errorMessage } from '@client/lib/api';
import { formatLongDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useApproveCut } from './delivery-comments-queries';
import { DeliveryReview, isPlayable } from './delivery-review';

function Preview({ file }: { file: DeliverableFile }) {
  if (file.contentType.startsWith('image/')) {
    return (
      <a href={file.url} target="_blank" rel="noopener noreferrer" aria-label={`Preview ${file.fileName} (opens in a new tab)`}>
        <img src={file.url} alt="" loading="lazy" className="size-14 rounded-md bg-muted object-cover" />
      </a>
    );
  }
  return (
    <span className="flex size-14 items-center justify-center rounded-md bg-muted">
      {file.contentType === 'application/zip' ? <FileArchive className="size-6" aria-hidden /> : <FileImage className="size-6" aria-hidden />}
    </span>
  );
}

/** The artist's approval of the latest cut (CONTRACT §17): the button for the owner, the state for both. */
function Approval({ submissionId, state, side, deliveryId }: { submissionId: string; state: ProductionState; side: 'artist' | 'team'; deliveryId: string }) {
  const approve = useApproveCut(submissionId);
  const [confirmDialog, confirm] = useConfirm();
  if (state.approvedDeliveryId === deliveryId) {
    return (
      <p className="flex items-center gap-1.5 text-sm font-medium text-success" data-testid="cut-approved">
        <BadgeCheck className="size-4" aria-hidden />
        {side === 'artist' ? 'You approved this cut' : 'Approved by the artist'}
        {state.cutApprovedAt ? ` on ${formatLongDateTime(state.cutApprovedAt)}` : ''}
      </p>
    );
  }
  if (side === 'team') return <p className="text-sm text-muted-foreground" data-testid="cut-not-approved">Not approved by the artist yet</p>;
  return (
    <>
    <Button
      size="sm"
      className="justify-self-start"
      disabled={approve.isPending}
      onClick={async () => {
        if (!(await confirm({ title: 'Approve this version as the final cut?', description: 'The team sees your approval on their desk.', confirmLabel: 'Approve' }))) return;
        approve.mutate(deliveryId, {
          onSuccess: () => toast({ title: 'Final cut approved', description: 'The team sees it on their desk.' }),
          onError: (error) => toast({ title: 'Not approved', description: errorMessage(error), variant: 'destructive' }),
        });
      }}
    >
      <BadgeCheck aria-hidden />
      Approve as final cut
    </Button>
    {confirmDialog}
    </>
  );
}

/**
 * The team's deliveries, newest version first: each file previewed or played in place with the
 * version's comments (CONTRACT §17), downloaded one by one or all as a ZIP; the approval of the
 * latest cut.
 */
export function DeliveriesList({ submissionId, state, side }: { submissionId: string; state: ProductionState; side: 'artist' | 'team' }) {
  const deliveries = [...state.deliveries].reverse();
  if (deliveries.length === 0) return <p className="text-sm text-muted-foreground">Nothing delivered yet.</p>;
  const latestId = deliveries[0]!.id;
  return (
    <div className="grid gap-4">
      {deliveries.map((delivery) => (
        <section key={delivery.id} className="grid gap-2 rounded-lg border p-3" aria-label={`Version ${delivery.version}`} data-testid="delivery">
          <div className="flex flex-wrap items-baseline gap-x-2">
            <h4 className="text-sm font-semibold">Version {delivery.version}</h4>
            <p className="text-xs text-muted-foreground">Delivered {formatLongDateTime(delivery.createdAt)}</p>
          </div>
          {delivery.note ? <p className="text-sm whitespace-pre-wrap">{delivery.note}</p> : null}
          {delivery.id === latestId || state.approvedDeliveryId === delivery.id ? (
            <Approval submissionId={submissionId} state={state} side={side} deliveryId={delivery.id} />
          ) : null}
          {delivery.files.some(isPlayable) ? <DeliveryReview submissionId={submissionId} delivery={delivery} /> : null}
          <ul className="grid gap-2" aria-label="Delivered files">
            {delivery.files.map((file) => (
              <li key={file.id} className="flex flex-wrap items-center gap-3">
                {isPlayable(file) ? null : <Preview file={file} />}
                <span className="grid min-w-0 flex-1">
                  <span className="truncate text-sm">{file.fileName}</span>
                  <span className="text-xs text-muted-foreground">{formatBytes(file.size)}</span>
                </span>
                <Button asChild variant="outline" size="sm">
                  <a href={`${file.url}?download`} download={file.fileName} aria-label={`Download ${file.fileName}`}>
                    <Download aria-hidden />
                    Download
                  </a>
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <Button asChild className="justify-self-start">
        <a href={`/api/submissions/${submissionId}/deliverables.zip`} download>
          <FileArchive aria-hidden />
          Download all (ZIP)
        </a>
      </Button>
    </div>
  );
}
