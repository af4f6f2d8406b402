import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return (
    <input
      type={type}
      className={cn(
        'flex h-10 w-full min-w-0 rounded-md border border-input bg-background/60 px-3 py-2 text-base text-foreground shadow-xs transition-colors placeholder:text-muted-foreground/80 outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive-soft aria-invalid:focus-visible:ring-destructive/40 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground sm:text-sm',
        className,
      )}
      {...props}
    />
  );
}
