import { Search } from 'lucide-react';
import { useState, type ChangeEvent, type ComponentProps } from 'react';
import { Input } from '@client/components/ui/input';
import { cn } from '@client/lib/utils';

/**
 * The one search field of the team's lists (the desk, Users, Outbox): a search input with the
 * magnifier inside it. `label` is its accessible name; `className` places the wrapper, and
 * `inputClassName` adds to the input's own classes (room for a clear button, its height).
 */
export function SearchField({
  label,
  className,
  inputClassName,
  children,
  ...props
}: Omit<ComponentProps<'input'>, 'type' | 'aria-label'> & { label: string; inputClassName?: string }) {
  return (
    <div className={cn('relative', className)}>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input type="search" aria-label={label} className={cn('pl-9', inputClassName)} {...props} />
      {children}
    </div>
  );
}

/**
 * A searched, paged list's search text and page: a new search starts again at page 1. `field`
 * goes on the list's SearchField (`<SearchField {...search.field} … />`).
 */
export function useSearchAndPage() {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const field = {
    value: q,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      setQ(event.target.value);
      setPage(1);
    },
  };
  return { q, page, setPage, field };
}
