import { ChevronLeft, ChevronRight, Download, Inbox, Search, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { PublicUser } from '@shared/auth';
import { TAG_MAX_LENGTH, type AdminSort } from '@shared/admin';
import type { AdminSubmission } from '@shared/submission-schemas';
import { STATUS_LABELS, SUBMISSION_STATUSES, type AdminSettableStatus } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Checkbox } from '@client/components/ui/checkbox';
import { Input } from '@client/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { AdminHeader } from '@client/components/admin-header';
import { toast } from '@client/lib/toast';
import { csvExportUrl, useAdminSubmissions, useLinkedSubmission } from './admin-queries';
import { AdminStatCards } from './admin-stat-cards';
import { BonusLedger } from './bonus-ledger';
import { AdminSubmissionRow } from './admin-submission-row';
import { BulkBar } from './bulk-bar';
import { DeleteSubmissionDialog } from './delete-submission-dialog';
import { ReviewTemplatesDialog } from './review-templates-dialog';
import { StatusChangeDialog } from './status-change-dialog';
import { SubmissionDetailsDialog } from './submission-details-dialog';

const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 300;
const number = new Intl.NumberFormat('en-US');

/** Single keys for the focused row's status (CONTRACT §14): they open the status dialog preset. */
const STATUS_KEYS: Record<string, AdminSettableStatus> = { a: 'approved', u: 'under_review', r: 'rejected', c: 'completed', p: 'pending' };
const VIEWS = [
  { value: 'all', label: 'Everyone’s' },
  { value: 'me', label: 'Assigned to me' },
  { value: 'none', label: 'Unassigned' },
] as const;

/** The link's job is done once its submission was shown (or refused): a reload should not open it again. */
function forgetLink() {
  if (new URLSearchParams(window.location.search).has('submission')) window.history.replaceState(null, '', window.location.pathname);
}

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** A key typed into a field, or while a dialog is open, is not a shortcut. */
function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  // A closing dialog stays in the page, data-state="closed", while it animates out.
  if (document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]')) return true;
  return !!target?.closest('input, textarea, select, [contenteditable="true"], [role="combobox"], [role="listbox"]');
}

export function AdminDashboard({ user }: { user: PublicUser }) {
  useDocumentTitle('Admin Dashboard');
  const [status, setStatus] = useState('all');
  const [search, setSearch] = useState('');
  const [view, setView] = useState('all');
  const [tagInput, setTagInput] = useState('');
  const [sort, setSort] = useState<AdminSort>('created');
  const [dueView, setDueView] = useState('any');
  const due = dueView === 'any' ? '' : dueView;
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const tag = useDebounced(tagInput.trim().toLowerCase(), SEARCH_DELAY_MS);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<AdminSubmission | null>(null);
  // The daily digest links to /admin?submission={id}: that submission's details open once it is read.
  const [linkedId, setLinkedId] = useState<string | null>(() => new URLSearchParams(window.location.search).get('submission'));
  const linked = useLinkedSubmission(linkedId);
  const [deleting, setDeleting] = useState<AdminSubmission | null>(null);
  const [picked, setPicked] = useState<Map<string, AdminSubmission>>(new Map());
  const [active, setActive] = useState(0);
  const [statusTarget, setStatusTarget] = useState<{ submission: AdminSubmission; status: AdminSettableStatus } | null>(null);
  const anchor = useRef<number | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const assignee = view === 'all' ? '' : view;

  // A new filter, sort or search starts again at its first page, with nothing picked.
  useEffect(() => {
    setPage(1);
  }, [status, q, assignee, tag, sort, due]);
  useEffect(() => {
    setPicked(new Map());
    setActive(0);
    anchor.current = null;
  }, [status, q, assignee, tag, sort, due, page]);

  const list = useAdminSubmissions({ status, q, assignee, tag, due, sort, page, pageSize: PAGE_SIZE });
  const data = list.data;
  const submissions = useMemo(() => data?.submissions ?? [], [data]);
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = status !== 'all' || q !== '' || assignee !== '' || tag !== '' || due !== '';
  const firstShown = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const hasNext = data ? (data.totalCapped ? submissions.length === PAGE_SIZE : page < pages) : false;
  const activeRow = submissions[Math.min(active, submissions.length - 1)];

  const toggle = (s: AdminSubmission, index: number, checked: boolean, range: boolean) => {
    setPicked((current) => {
      const next = new Map(current);
      const from = range && anchor.current !== null ? Math.min(anchor.current, index) : index;
      const to = range && anchor.current !== null ? Math.max(anchor.current, index) : index;
      for (const row of submissions.slice(from, to + 1)) {
        if (checked) next.set(row.id, row);
        else next.delete(row.id);
      }
      return next;
    });
    anchor.current = index;
    setActive(index);
  };

  // j/k (or arrows) move, Enter opens, x picks, a/u/r/c/p set a status, / searches.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event) || submissions.length === 0) return;
      const row = submissions[Math.min(active, submissions.length - 1)];
      const key = event.key;
      if (key === 'j' || key === 'ArrowDown') setActive((i) => Math.min(submissions.length - 1, i + 1));
      else if (key === 'k' || key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
      else if (key === 'Enter' && row) setSelected(row);
      else if (key === 'x' && row) toggle(row, active, !picked.has(row.id), event.shiftKey);
      else if (key === '/') searchRef.current?.focus();
      else if (STATUS_KEYS[key] && row) setStatusTarget({ submission: row, status: STATUS_KEYS[key] });
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // Keep the focused row in view as j/k move through a long page.
  useEffect(() => {
    document.querySelector('[data-testid="admin-submission-row"][data-active]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  useEffect(() => {
    if (linked.data) setSelected(linked.data);
    else if (linked.isError) {
      toast({ title: 'Error', description: errorMessage(linked.error), variant: 'destructive' });
      forgetLink();
    }
    if (linked.data || linked.isError) setLinkedId(null);
  }, [linked.data, linked.isError, linked.error]);

  const allPicked = submissions.length > 0 && submissions.every((s) => picked.has(s.id));

  return (
    <div className="min-h-dvh">
      <AdminHeader user={user} />
      <main className="mx-auto grid w-full max-w-7xl gap-3 px-4 py-3 sm:px-6 lg:px-8">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">Admin Dashboard</h1>
          <p className="text-sm text-muted-foreground">Review submissions, update their status and keep the artists in the loop.</p>
        </div>

        <AdminStatCards stats={data?.stats} status={status} onStatus={setStatus} />

        <Card className="gap-0 overflow-hidden p-0">
          <div className="flex flex-col gap-2 border-b p-3 lg:flex-row lg:items-center">
            <h2 className="shrink-0 text-lg font-semibold">All Submissions</h2>
            {/* One line from 1280 px on (the search gives way), so the list keeps its 12 rows on a laptop. */}
            <div className="flex flex-1 flex-wrap items-center gap-2 lg:justify-end xl:flex-nowrap">
              <div className="relative w-full sm:w-64 xl:w-auto xl:max-w-64 xl:min-w-40 xl:flex-1">
                <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
                <Input
                  ref={searchRef}
                  type="search"
                  aria-label="Search submissions"
                  placeholder="Search title, artist or email..."
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  // The clear button below is the one way to clear it; the browser's own would be a second ×.
                  className="h-9 pr-9 pl-9 [&::-webkit-search-cancel-button]:appearance-none"
                  maxLength={200}
                />
                {search ? (
                  <button type="button" onClick={() => setSearch('')} aria-label="Clear search" className="absolute top-1/2 right-2 -translate-y-1/2 cursor-pointer rounded p-1 text-muted-foreground hover:text-foreground">
                    <X className="size-4" aria-hidden />
                  </button>
                ) : null}
              </div>
              <Select value={view} onValueChange={setView}>
                <SelectTrigger aria-label="Assigned to" className="h-9 w-[calc(50%-0.25rem)] sm:w-36">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {VIEWS.map((v) => (
                    <SelectItem key={v.value} value={v.value}>
                      {v.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <Select value={status} onValueChange={setStatus}>
                <SelectTrigger aria-label="Filter by status" className="h-9 w-[calc(50%-0.25rem)] sm:w-40">
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
              <Input value={tagInput} onChange={(e) => setTagInput(e.target.value)} placeholder="Tag" aria-label="Filter by tag" className="h-9 w-[calc(50%-0.25rem)] sm:w-20" maxLength={TAG_MAX_LENGTH} />
              <Select value={dueView} onValueChange={setDueView}>
                <SelectTrigger aria-label="Filter by deadline" className="h-9 w-[calc(50%-0.25rem)] sm:w-36">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="any">Any deadline</SelectItem>
                  <SelectItem value="overdue">Overdue</SelectItem>
                  <SelectItem value="today">Due today</SelectItem>
                  <SelectItem value="week">Due this week</SelectItem>
                </SelectContent>
              </Select>
              <Select value={sort} onValueChange={(v) => setSort(v as AdminSort)}>
                <SelectTrigger aria-label="Sort" className="h-9 w-[calc(50%-0.25rem)] sm:w-36">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="created">Newest first</SelectItem>
                  <SelectItem value="due">Due soonest</SelectItem>
                  <SelectItem value="rating">Best rated</SelectItem>
                </SelectContent>
              </Select>
              <ReviewTemplatesDialog />
              <Button asChild variant="outline" size="sm" className="h-9">
                <a href={csvExportUrl({ status, q, assignee, tag, due })} download title="Export this list as CSV">
                  <Download aria-hidden />
                  <span className="sr-only 2xl:not-sr-only">CSV</span>
                </a>
              </Button>
            </div>
          </div>

          {picked.size ? <BulkBar selected={[...picked.values()]} onClear={() => setPicked(new Map())} /> : null}

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
                {filtered ? 'No submissions match this search or filter.' : 'No submissions have been made yet.'}
              </p>
            </div>
          ) : (
            <div className="overflow-x-auto">
              <table className={`w-full min-w-[75rem] table-fixed xl:min-w-0 text-sm transition-opacity ${list.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={list.isFetching} data-search={q}>
                <colgroup>
                  <col className="w-9" />
                  <col />
                  <col className="w-32" />
                  <col className="w-40" />
                  <col className="w-28" />
                  <col className="w-20" />
                  <col className="w-32" />
                  <col className="w-24" />
                  <col className="w-24" />
                  <col className="w-24" />
                  <col className="w-20" />
                </colgroup>
                <thead className="border-b bg-muted/30 text-left text-xs text-muted-foreground">
                  <tr className="h-8">
                    <th className="pl-3 font-normal">
                      <Checkbox
                        checked={allPicked}
                        aria-label="Select all on this page"
                        onCheckedChange={(checked) => setPicked(checked === true ? new Map(submissions.map((s) => [s.id, s])) : new Map())}
                      />
                    </th>
                    <th className="font-medium">Track</th>
                    <th className="px-2 font-medium">Status</th>
                    <th className="px-2 font-medium">Tier · payment</th>
                    <th className="px-2 font-medium">Assignee</th>
                    <th className="px-2 font-medium">Rating</th>
                    <th className="px-2 font-medium">Tags</th>
                    <th className="px-2 font-medium">Listened</th>
                    <th className="px-2 font-medium">Submitted</th>
                    <th className="px-2 font-medium">Due</th>
                    <th className="pr-2 text-right font-medium">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {submissions.map((s, index) => (
                    <AdminSubmissionRow
                      key={s.id}
                      submission={s}
                      active={activeRow?.id === s.id}
                      selected={picked.has(s.id)}
                      onSelect={(event: MouseEvent, checked) => toggle(s, index, checked, event.shiftKey)}
                      onActivate={() => setActive(index)}
                      onOpen={() => {
                        setActive(index);
                        setSelected(s);
                      }}
                      onDelete={() => setDeleting(s)}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}

          {total > 0 ? (
            <nav aria-label="Pagination" className="flex flex-col items-center justify-between gap-2 border-t p-2 text-sm sm:flex-row sm:px-4">
              <p className="text-muted-foreground tabular-nums" data-testid="admin-range">
                Showing {number.format(firstShown)}–{number.format(firstShown + submissions.length - 1)} of{' '}
                {number.format(total)}
                {data?.totalCapped ? '+' : ''}
              </p>
              <p className="hidden text-xs text-muted-foreground xl:block" aria-label="Keyboard shortcuts">
                <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>x</kbd> select · <kbd>a</kbd> approve · <kbd>u</kbd> under review · <kbd>r</kbd> reject · <kbd>c</kbd> complete · <kbd>p</kbd> pending · <kbd>/</kbd> search
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
        <BonusLedger />
      </main>

      <SubmissionDetailsDialog
        submission={selected}
        onOpenChange={(open) => {
          if (open) return;
          setSelected(null);
          forgetLink();
        }}
        onDelete={setDeleting}
      />
      <StatusChangeDialog
        submissions={statusTarget ? [statusTarget.submission] : []}
        initialStatus={statusTarget?.status}
        open={statusTarget !== null}
        onOpenChange={(open) => !open && setStatusTarget(null)}
      />
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
