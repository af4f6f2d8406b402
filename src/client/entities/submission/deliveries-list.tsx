import { Download, FileArchive, FileImage } from 'lucide-react';
import type { DeliverableFile, Delivery } from '@shared/production';
import { formatBytes } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { formatLongDateTime } from '@client/lib/format';

function Preview({ file }: { file: DeliverableFile }) {
  if (file.contentType.startsWith('image/')) {
    return (
      <a href={file.url} target="_blank" rel="noopener noreferrer" aria-label={`Preview ${file.fileName} (opens in a new tab)`}>
        <img src={file.url} alt="" loading="lazy" className="size-14 rounded-md bg-muted object-cover" />
      </a>
    );
  }
  if (file.contentType.startsWith('audio/')) {
    return <audio controls preload="none" src={file.url} aria-label={`Play ${file.fileName}`} className="order-last h-9 w-full basis-full" />;
  }
  if (file.contentType.startsWith('video/')) {
    return <video controls preload="metadata" src={file.url} aria-label={`Play ${file.fileName}`} className="order-last max-h-48 w-full basis-full rounded-md bg-black" />;
  }
  return (
    <span className="flex size-14 items-center justify-center rounded-md bg-muted">
      {file.contentType === 'application/zip' ? <FileArchive className="size-6" aria-hidden /> : <FileImage className="size-6" aria-hidden />}
    </span>
  );
}

/** The team's deliveries: each file previewed or played in place, downloaded one by one or all as a ZIP. */
export function DeliveriesList({ submissionId, deliveries }: { submissionId: string; deliveries: Delivery[] }) {
  if (deliveries.length === 0) return <p className="text-sm text-muted-foreground">Nothing delivered yet.</p>;
  return (
    <div className="grid gap-4">
      {deliveries.map((delivery) => (
        <div key={delivery.id} className="grid gap-2 rounded-lg border p-3">
          <p className="text-xs text-muted-foreground">Delivered {formatLongDateTime(delivery.createdAt)}</p>
          {delivery.note ? <p className="text-sm whitespace-pre-wrap">{delivery.note}</p> : null}
          <ul className="grid gap-2" aria-label="Delivered files">
            {delivery.files.map((file) => (
              <li key={file.id} className="flex flex-wrap items-center gap-3">
                <Preview file={file} />
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
        </div>
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
