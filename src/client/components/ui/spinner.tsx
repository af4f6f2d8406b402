import { LoaderCircle } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

interface SpinnerProps extends ComponentProps<'svg'> {
  /** Announced to assistive technology; omit when visible text already says what is loading. */
  label?: string;
}

export function Spinner({ className, label, ...props }: SpinnerProps) {
  return (
    <LoaderCircle
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      className={cn('size-4 animate-spin text-primary-soft', className)}
      {...props}
    />
  );
}

/** What a page says while its code loads (and what the mailed-link document shows until then, decision 202). */
export const PAGE_LOADING_TEXT = 'Loading...';

/** Fills the viewport while something the whole page needs is loading. */
export function FullScreenSpinner({ text }: { text: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-background">
      <Spinner className="size-8" />
      <p className="text-sm text-muted-foreground">{text}</p>
    </div>
  );
}
