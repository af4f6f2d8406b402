import { CircleAlert, CircleCheck, FileAudio, FileVideo, ImagePlus, RotateCcw, Upload, WifiOff, X } from 'lucide-react';
import { useId, useState, type DragEvent } from 'react';
import { Button } from '@client/components/ui/button';
import { Progress } from '@client/components/ui/progress';
import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/utils';
import { UPLOAD_STATE_TEXTS } from '@shared/field-texts';
import { formatBytes } from '@shared/submissions';
import { UPLOAD_KINDS } from './upload-kinds';
import type { FileUploader, UploadItem } from './use-file-uploader';

interface UploadWidgetProps {
  uploader: FileUploader;
  label: string;
  hint: string;
}

/** A drop zone and file chooser with one row per file: progress, retry and remove (SPEC §2, §5). */
export function UploadWidget({ uploader, label, hint }: UploadWidgetProps) {
  const inputId = useId();
  const [dragging, setDragging] = useState(false);
  const config = UPLOAD_KINDS[uploader.kind];
  const multiple = config.maxFiles > 1;
  const full = uploader.items.length >= config.maxFiles;

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!full) uploader.addFiles(event.dataTransfer.files);
  };

  return (
    <div className="grid gap-3">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">{label}</span>
        {multiple ? (
          <span className="text-xs text-muted-foreground tabular-nums">
            {uploader.items.length} / {config.maxFiles}
          </span>
        ) : null}
      </div>
      {full ? (
        <p className="text-xs text-muted-foreground">{hint}</p>
      ) : (
        <label
          htmlFor={inputId}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-input bg-background/40 px-4 py-6 text-center transition-colors hover:border-primary/60 hover:bg-primary/5 has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-ring',
            dragging && 'border-primary bg-primary/10',
          )}
        >
          {uploader.kind === 'music' || uploader.kind === 'video' ? (
            <Upload className="size-6 text-primary-soft" aria-hidden />
          ) : (
            <ImagePlus className="size-6 text-primary-soft" aria-hidden />
          )}
          <span className="text-sm font-medium">{multiple ? 'Choose files or drop them here' : 'Choose a file or drop it here'}</span>
          <span className="text-xs text-muted-foreground">{hint}</span>
          <input
            id={inputId}
            type="file"
            className="sr-only"
            accept={config.accept}
            multiple={multiple}
            aria-label={label}
            onChange={(event) => {
              if (event.target.files) uploader.addFiles(event.target.files);
              event.target.value = '';
            }}
          />
        </label>
      )}
      {uploader.items.length > 0 ? (
        <ul className={cn('grid gap-2', multiple && 'sm:grid-cols-2')}>
          {uploader.items.map((item) => (
            <UploadRow key={item.id} item={item} video={uploader.kind === 'video'} onRemove={() => uploader.remove(item.id)} onRetry={() => uploader.retry(item.id)} />
          ))}
        </ul>
      ) : null}
      {multiple && uploader.items.length > 1 ? (
        <Button variant="ghost" size="sm" className="justify-self-start" onClick={uploader.removeAll}>
          <X aria-hidden />
          Remove all
        </Button>
      ) : null}
    </div>
  );
}

/** What a file on its way is doing, in words (CONTRACT §23), with its percentage where bytes count. */
function busyText(item: UploadItem): string {
  switch (item.status) {
    case 'offline':
      return `${UPLOAD_STATE_TEXTS.offline} · ${item.progress}%`;
    case 'resuming':
      return `${UPLOAD_STATE_TEXTS.resuming} ${item.progress}%`;
    case 'retrying':
      return UPLOAD_STATE_TEXTS.retrying;
    case 'processing':
      return UPLOAD_STATE_TEXTS.processing;
    default:
      return `${UPLOAD_STATE_TEXTS.uploading} ${item.progress}%`;
  }
}

function UploadRow({ item, video, onRemove, onRetry }: { item: UploadItem; video: boolean; onRemove: () => void; onRetry: () => void }) {
  const busy = item.status !== 'uploaded' && item.status !== 'failed';
  return (
    <li data-testid="upload-item" data-status={item.status} className="flex items-center gap-3 rounded-lg border bg-card/60 p-2.5">
      {item.previewUrl ? (
        <img src={item.previewUrl} alt="" className="size-11 shrink-0 rounded-md object-cover" />
      ) : (
        <span className="flex size-11 shrink-0 items-center justify-center rounded-md bg-primary/15 text-primary-soft">
          {video ? <FileVideo className="size-5" aria-hidden /> : <FileAudio className="size-5" aria-hidden />}
        </span>
      )}
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="truncate text-sm font-medium" title={item.name}>
          {item.name}
        </p>
        {busy ? (
          <>
            <p className={cn('flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground', item.status === 'offline' && 'text-warning')} role="status">
              {item.status === 'offline' ? <WifiOff className="size-3 shrink-0" aria-hidden /> : <Spinner className="size-3" />}
              <span className="truncate">{busyText(item)}</span>
            </p>
            <Progress value={item.progress} className="h-1.5" aria-label={`Upload progress of ${item.name}`} />
          </>
        ) : item.status === 'uploaded' ? (
          <p className="flex items-center gap-1.5 text-xs text-success">
            <CircleCheck className="size-3.5" aria-hidden />
            Uploaded · {formatBytes(item.size)}
          </p>
        ) : (
          <>
            {/* The reason in full (it wraps): on a phone a cut-off reason says nothing. */}
            <p className="flex min-w-0 items-start gap-1.5 text-xs break-words text-destructive-soft" role="status">
              <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden />
              <span className="min-w-0">{item.error ?? UPLOAD_STATE_TEXTS.failed}</span>
            </p>
            <Button variant="outline" size="sm" className="h-7 justify-self-start" onClick={onRetry} aria-label={`Retry ${item.name}`}>
              <RotateCcw aria-hidden />
              Retry
            </Button>
          </>
        )}
      </div>
      <Button variant="ghost" size="icon-sm" onClick={onRemove} aria-label={`Remove ${item.name}`}>
        <X aria-hidden />
      </Button>
    </li>
  );
}
