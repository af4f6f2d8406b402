import { useQuery } from '@tanstack/react-query';
import { formatTrackTime, type TrackComment } from '@shared/review-desk';

/** The label's comments on moments of the artist's track that the team chose to share (CONTRACT §14). */
export function TrackComments({ submissionId }: { submissionId: string }) {
  const comments = useQuery<TrackComment[]>({ queryKey: [`/api/submissions/${submissionId}/comments`], staleTime: 60_000 });
  if (!comments.data?.length) return null;
  // CONTRACT §27: each comment is about one version; named once there is more than one.
  const rounds = new Set(comments.data.map((c) => c.round)).size > 1;
  return (
    <section className="grid gap-2" aria-labelledby="track-comments-heading">
      <h3 id="track-comments-heading" className="text-sm font-semibold">
        Comments on your track
      </h3>
      <ol className="grid gap-1.5 text-sm" data-testid="artist-track-comments">
        {comments.data.map((c) => (
          <li key={c.id} className="flex gap-2">
            <span className="shrink-0 font-mono text-xs text-primary-soft tabular-nums">
              {rounds ? `R${c.round} ` : ''}
              {formatTrackTime(c.atSeconds)}
            </span>
            <span className="min-w-0 break-words">{c.text}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
