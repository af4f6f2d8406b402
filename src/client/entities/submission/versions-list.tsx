import { ExternalLink, FileAudio, FileVideo } from 'lucide-react';
import type { SubmissionVersion } from '@shared/versions';
import { VERSION_TEXTS } from '@shared/versions';
import { formatLongDateTime } from '@client/lib/format';
import { cn } from '@client/lib/utils';

/**
 * A submission's versions, oldest first (CONTRACT §27): each round with when it came, the
 * artist's note on what changed, and its file or link. The artist's details and the desk show it.
 */
export function VersionsList({ versions, video = false }: { versions: SubmissionVersion[]; video?: boolean }) {
  const Icon = video ? FileVideo : FileAudio;
  return (
    <ol className="grid gap-2" aria-label={VERSION_TEXTS.heading} data-testid="versions-list">
      {versions.map((v) => (
        <li key={v.round} data-testid="version-item" className={cn('grid gap-1 rounded-lg border p-3 text-sm', v.current && 'border-primary/50 bg-primary/5')}>
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <Icon className="size-4 shrink-0 text-primary-soft" aria-hidden />
            <span className="font-medium">{VERSION_TEXTS.roundLabel(v.round)}</span>
            {v.current ? <span className="rounded bg-primary/20 px-1.5 py-0.5 text-xs text-primary-soft">Current</span> : null}
            <span className="text-xs text-muted-foreground">{formatLongDateTime(v.createdAt)}</span>
          </div>
          {v.url ? (
            <a href={v.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1.5 break-all text-primary-soft underline-offset-4 hover:underline">
              <ExternalLink className="size-3.5 shrink-0" aria-hidden />
              {v.url}
            </a>
          ) : v.objectPath ? (
            <a href={v.objectPath} className="break-all text-primary-soft underline-offset-4 hover:underline" download={v.fileName ?? undefined}>
              {v.fileName ?? 'Uploaded file'}
            </a>
          ) : null}
          {v.note ? <p className="whitespace-pre-wrap text-muted-foreground">{v.note}</p> : null}
        </li>
      ))}
    </ol>
  );
}
