import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'flex min-h-20 w-full rounded-md border border-input bg-background/60 px-3 py-2 text-base text-foreground shadow-xs transition-colors placeholder:text-muted-foreground/80 outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive-soft sm:text-sm',
        className,
      )}
      {...props}
    />
  );
}
