import type { ReactNode } from 'react';
import { cn } from '@client/lib/utils';

const LAYOUTS = {
  /** The term small above its value (details dialogs, the wizard's review). */
  stacked: { row: 'grid min-w-0 gap-0.5', term: 'text-xs text-muted-foreground', value: 'break-words' },
  /** Term left, value right (order summaries, receipts). */
  inline: { row: 'flex items-baseline justify-between gap-4', term: 'shrink-0 text-muted-foreground', value: 'min-w-0 text-right' },
  /** Term and value as two cells of the surrounding `<dl>`'s grid columns. */
  columns: { row: 'contents', term: 'text-muted-foreground', value: 'min-w-0 break-words' },
} as const;

/** One term and its value inside a `<dl>`: the one label/value row of every screen. */
export function DescriptionRow({
  term,
  children,
  layout = 'stacked',
  className,
}: {
  term: ReactNode;
  children: ReactNode;
  layout?: keyof typeof LAYOUTS;
  className?: string;
}) {
  const style = LAYOUTS[layout];
  return (
    <div className={cn(style.row, className)}>
      <dt className={style.term}>{term}</dt>
      <dd className={style.value}>{children}</dd>
    </div>
  );
}
