import { ChevronLeft, ChevronRight, Inbox, Search, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { PublicUser } from '@shared/auth';
import type { AdminSubmission } from '@shared/submission-schemas';
import { STATUS_LABELS, SUBMISSION_STATUSES } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Input } from '@client/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { AdminHeader } from './admin-header';
import { useAdminSubmissions } from './admin-queries';
import { AdminStatCards } from './admin-stat-cards';
import { AdminSubmissionRow } from './admin-submission-row';
import { DeleteSubmissionDialog } from './delete-submission-dialog';
import { SubmissionDetailsDialog } from './submission-details-dialog';

const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 300;
const number = new Intl.NumberFormat('en-US');

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export function AdminDashboard({ user }: { user: PublicUser }) {
  useDocumentTitle('Admin Dashboard');
  const [status, setStatus] = useState('all');
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<AdminSubmission | null>(null);
  const [deleting, setDeleting] = useState<AdminSubmission | null>(null);

  // A new filter or search starts again at its first page.
  useEffect(() => setPage(1), [status, q]);

  const list = useAdminSubmissions({ status, q, page, pageSize: PAGE_SIZE });
  const data = list.data;
  const submissions = data?.submissions ?? [];
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = status !== 'all' || q !== '';
  const firstShown = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const hasNext = data ? (data.totalCapped ? submissions.length === PAGE_SIZE : page < pages) : false;

  return (
    <div className="min-h-dvh">
      <AdminHeader user={user} />
      <main className="mx-auto grid w-full max-w-7xl gap-6 px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Admin Dashboard</h1>
          <p className="text-muted-foreground">Review submissions, update their status and keep the artists in the loop.</p>
        </div>

        <AdminStatCards stats={data?.stats} status={status} onStatus={setStatus} />

        <Card className="gap-0 overflow-hidden p-0">
          <div className="flex flex-col gap-3 border-b p-4 sm:flex-row sm:items-center">
            <h2 className="shrink-0 text-lg font-semibold">All Submissions</h2>
            <div className="flex flex-1 flex-col gap-2 sm:flex-row sm:justify-end">
              <div className="relative sm:w-80">
                <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
                <Input
                  type="search"
                  aria-label="Search submissions"
                  placeholder="Search title, artist or email..."
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  className="pr-9 pl-9"
                  maxLength={200}
                />
                {search ? (
                  <button type="button" onClick={() => setSearch('')} aria-label="Clear search" className="absolute top-1/2 right-2 -translate-y-1/2 cursor-pointer rounded p-1 text-muted-foreground hover:text-foreground">
                    <X className="size-4" aria-hidden />
                  </button>
                ) : null}
              </div>
              <Select value={status} onValueChange={setStatus}>
                <SelectTrigger aria-label="Filter by status" className="sm:w-48">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="all">All statuses</SelectItem>
                  {SUBMISSION_STATUSES.map((s) => (
                    <SelectItem key={s} value={s}>
                      {STATUS_LABELS[s]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>

          {list.isLoading ? (
            <div className="flex justify-center p-12">
              <Spinner label="Loading submissions" />
            </div>
          ) : list.isError && !data ? (
            <div role="alert" className="grid justify-items-center gap-3 p-12 text-center">
              <p className="font-medium">The submissions could not be loaded.</p>
              <p className="text-sm text-muted-foreground">{errorMessage(list.error)}</p>
              <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
                Try again
              </Button>
            </div>
          ) : submissions.length === 0 ? (
            <div className="grid justify-items-center gap-2 p-12 text-center" data-testid="admin-empty">
              <Inbox className="size-10 text-muted-foreground" aria-hidden />
              <p className="font-medium">No submissions found</p>
              <p className="text-sm text-muted-foreground">
                {filtered ? 'No submissions match this search or status.' : 'No submissions have been made yet.'}
              </p>
            </div>
          ) : (
            <ul className={`divide-y transition-opacity ${list.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={list.isFetching}>
              {submissions.map((s) => (
                <AdminSubmissionRow key={s.id} submission={s} onOpen={() => setSelected(s)} onDelete={() => setDeleting(s)} />
              ))}
            </ul>
          )}

          {total > 0 ? (
            <nav aria-label="Pagination" className="flex flex-col items-center justify-between gap-2 border-t p-3 text-sm sm:flex-row sm:px-4">
              <p className="text-muted-foreground tabular-nums" data-testid="admin-range">
                Showing {number.format(firstShown)}–{number.format(firstShown + submissions.length - 1)} of{' '}
                {number.format(total)}
                {data?.totalCapped ? '+' : ''}
              </p>
              <div className="flex items-center gap-2">
                <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => Math.max(1, p - 1))} aria-label="Previous page">
                  <ChevronLeft aria-hidden />
                  <span className="hidden sm:inline">Previous</span>
                </Button>
                <span className="tabular-nums text-muted-foreground">
                  Page {number.format(page)} of {number.format(pages)}
                  {data?.totalCapped ? '+' : ''}
                </span>
                <Button variant="outline" size="sm" disabled={!hasNext} onClick={() => setPage((p) => p + 1)} aria-label="Next page">
                  <span className="hidden sm:inline">Next</span>
                  <ChevronRight aria-hidden />
                </Button>
              </div>
            </nav>
          ) : null}
        </Card>
      </main>

      <SubmissionDetailsDialog submission={selected} onOpenChange={(open) => !open && setSelected(null)} onDelete={setDeleting} />
      <DeleteSubmissionDialog
        target={deleting}
        onOpenChange={(open) => !open && setDeleting(null)}
        onDeleted={() => {
          if (deleting?.id === selected?.id) setSelected(null);
        }}
      />
    </div>
  );
}
