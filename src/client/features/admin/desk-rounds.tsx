import { useState, type ReactNode } from 'react';
import type { AdminSubmission } from '@shared/submission-schemas';
import { uploadIdFromObjectPath } from '@shared/submissions';
import { VERSION_TEXTS, type SubmissionVersion } from '@shared/versions';
import { formatLongDateTime } from '@client/lib/format';
import { cn } from '@client/lib/utils';
import { useSubmissionVersions } from '@client/entities/submission/version-queries';
import { VersionsList } from '@client/entities/submission/versions-list';
import { WaveformPlayer } from './waveform-player';

/**
 * The desk's rounds (CONTRACT §27): once an artist has sent a new version, the team switches
 * between the rounds on the waveform player, each with its own waveform and comments, and sees
 * every version listed with the artist's notes. `fallback` is the single-version player the desk
 * shows otherwise.
 */
export function DeskRounds({ submission: s, fallback }: { submission: AdminSubmission; fallback: ReactNode }) {
  const versions = useSubmissionVersions(s.id, s.round);
  const [chosen, setChosen] = useState<number | null>(null);
  if (s.round <= 1 || !versions.data || versions.data.length < 2) return <>{fallback}</>;
  const round = chosen ?? s.round;
  const version = versions.data.find((v) => v.round === round) ?? versions.data.at(-1)!;
  return (
    <div className="grid gap-3" data-testid="desk-rounds">
      <div role="tablist" aria-label="Rounds" className="flex flex-wrap gap-1.5">
        {versions.data.map((v) => (
          <button
            key={v.round}
            type="button"
            role="tab"
            aria-selected={v.round === version.round}
            onClick={() => setChosen(v.round)}
            className={cn(
              'rounded-md border px-2.5 py-1 text-xs font-medium',
              v.round === version.round ? 'border-primary bg-primary/15 text-foreground' : 'border-input text-muted-foreground hover:bg-accent',
            )}
          >
            {VERSION_TEXTS.roundLabel(v.round)}
            {v.current ? ' · current' : ''}
          </button>
        ))}
      </div>
      <RoundPlayer key={version.round} submission={s} version={version} />
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">
          {VERSION_TEXTS.heading} ({versions.data.length})
        </summary>
        <div className="mt-2">
          <VersionsList versions={versions.data} video={s.submissionType === 'video'} />
        </div>
      </details>
    </div>
  );
}

function RoundPlayer({ submission: s, version }: { submission: AdminSubmission; version: SubmissionVersion }) {
  return (
    <div className="grid gap-2" role="tabpanel" aria-label={VERSION_TEXTS.roundLabel(version.round)} data-testid="round-player" data-round={version.round}>
      <p className="text-xs text-muted-foreground">
        {VERSION_TEXTS.roundLabel(version.round)} · {formatLongDateTime(version.createdAt)}
        {version.fileName ? ` · ${version.fileName}` : ''}
      </p>
      {version.note ? <p className="rounded-md bg-muted/50 p-2 text-sm whitespace-pre-wrap">{version.note}</p> : null}
      {version.objectPath && uploadIdFromObjectPath(version.objectPath) ? (
        s.submissionType === 'video' ? (
          <video src={version.objectPath} controls preload="metadata" className="max-h-72 w-full rounded-lg bg-black" />
        ) : (
          <WaveformPlayer submissionId={s.id} src={version.objectPath} round={version.round} />
        )
      ) : version.url ? (
        <a href={version.url} target="_blank" rel="noopener noreferrer" className="text-sm break-all text-primary-soft underline-offset-4 hover:underline">
          {version.url}
        </a>
      ) : null}
    </div>
  );
}
