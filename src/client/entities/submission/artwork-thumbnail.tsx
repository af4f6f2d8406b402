import { Music } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@client/lib/utils';

interface ArtworkThumbnailProps {
  url: string | null | undefined;
  /** The text alternative, e.g. "Artwork of Night Drive". */
  alt: string;
  className?: string;
}

/** A submission's artwork, or a neutral placeholder when it is missing or fails to load (SPEC §2). */
export function ArtworkThumbnail({ url, alt, className }: ArtworkThumbnailProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (url && failedUrl !== url) {
    return <img src={url} alt={alt} loading="lazy" onError={() => setFailedUrl(url)} className={cn('size-12 shrink-0 rounded-md bg-muted object-cover', className)} />;
  }
  return (
    <span
      role="img"
      aria-label={alt}
      data-testid="artwork-fallback"
      className={cn('flex size-12 shrink-0 items-center justify-center rounded-md bg-gradient-to-br from-primary/30 to-secondary text-primary-soft', className)}
    >
      <Music className="size-1/2" aria-hidden />
    </span>
  );
}
