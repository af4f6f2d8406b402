import { useQuery } from '@tanstack/react-query';
import { Link2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Spinner } from '@client/components/ui/spinner';
import { fetchUrlMetadata } from '@client/entities/submission/submission-queries';

const DEBOUNCE_MS = 600;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Title and thumbnail of a pasted link, from POST /api/url-metadata (SPEC §2). */
export function LinkPreview({ url }: { url: string }) {
  const [settled, setSettled] = useState(url.trim());
  const [brokenThumbnail, setBrokenThumbnail] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(url.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [url]);

  const enabled = isHttpUrl(settled);
  const metadata = useQuery({
    queryKey: ['/api/url-metadata', settled],
    queryFn: ({ signal }) => fetchUrlMetadata(settled, signal),
    enabled,
  });

  if (!enabled) return null;
  if (metadata.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
        <Spinner />
        Looking up the link...
      </p>
    );
  }
  if (metadata.isError || !metadata.data) {
    return <p className="text-sm text-muted-foreground">No preview is available for this link.</p>;
  }
  const { title, thumbnail } = metadata.data;
  return (
    <div data-testid="link-preview" className="flex items-center gap-3 rounded-lg border bg-card/60 p-3">
      {thumbnail && brokenThumbnail !== thumbnail ? (
        <img src={thumbnail} alt="" referrerPolicy="no-referrer" onError={() => setBrokenThumbnail(thumbnail)} className="h-14 w-24 shrink-0 rounded-md object-cover" />
      ) : (
        <span className="flex h-14 w-24 shrink-0 items-center justify-center rounded-md bg-primary/15 text-primary-soft">
          <Link2 className="size-5" aria-hidden />
        </span>
      )}
      <p className="line-clamp-2 min-w-0 text-sm font-medium">{title}</p>
    </div>
  );
}
