import type { ReactNode } from 'react';
import { Button } from '@client/components/ui/button';

interface PagerProps {
  page: number;
  /** The number of pages a total makes, as `lastPageOf` counts them. */
  lastPage: number;
  onPage: (page: number) => void;
  /** Said after "Page 2 of 5", e.g. how many records there are. */
  children?: ReactNode;
}

/** Pages of a server-paged list; a total is `{ total, pageSize }` as the admin lists answer it. */
export function lastPageOf(list: { total: number; pageSize: number } | undefined): number {
  return list ? Math.max(1, Math.ceil(list.total / list.pageSize)) : 1;
}

/** Previous and Next under a server-paged list; nothing while the list fits on one page. */
export function Pager({ page, lastPage, onPage, children }: PagerProps) {
  if (lastPage <= 1) return null;
  return (
    <nav className="flex items-center justify-between gap-2" aria-label="Pages">
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="text-sm text-muted-foreground">
        Page {page} of {lastPage}
        {children}
      </span>
      <Button variant="outline" size="sm" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
