import { ChevronLeft, ChevronRight, Download, Inbox, X } from 'lucide-react';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import type { PublicUser } from '@shared/auth';
import { TAG_MAX_LENGTH, type AdminSort } from '@shared/admin';
import type { AdminSubmission } from '@shared/submission-schemas';
import { STATUS_LABELS, SUBMISSION_STATUSES, type AdminSettableStatus } from '@shared/submissions';
import { RIGHTS_STATE_LABELS } from '@shared/rights';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Checkbox } from '@client/components/ui/checkbox';
import { Input } from '@client/components/ui/input';
import { SearchField } from '@client/components/search-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useMediaQuery, WIDE_SCREEN_QUERY } from '@client/lib/use-media-query';
import { AdminHeader } from '@client/components/admin-header';
import { markActivitySeen, useUnseenActivity } from '@client/entities/submission/artist-activity-queries';
import { useUnreadMessageCount } from '@client/entities/message/message-queries';
import { csvExportUrl } from './admin-queries';
import { AdminStatCards } from './admin-stat-cards';
import { BonusLedger } from './bonus-ledger';
import { PayeesList } from './payees-list';
import { AdminSubmissionRow, type RowProps } from './admin-submission-row';
import { AdminSubmissionCard } from './admin-submission-card';
import { BulkBar } from './bulk-bar';
import { DeleteSubmissionDialog } from './delete-submission-dialog';
import { ReviewTemplatesDialog } from './review-templates-dialog';
import { StatusChangeDialog } from './status-change-dialog';
import { SubmissionDetailsDialog } from './submission-details-dialog';
import { ASSIGNEE_VIEWS, DECISION_VIEWS, DESK_SORTS, DUE_VIEWS, RIGHTS_VIEWS, VIRAL_VIEWS, type AssigneeView, type DecisionView, type DeskFilters, type DueView, type RightsView, type ViralView } from './desk-state';
import { AwaySwitch } from './away-switch';
import { useDeskShortcuts } from './desk-shortcuts';
import { forgetLink, useDeepLinkedSubmission } from './use-deep-link';
import { useDeskList } from './use-desk-list';

const number = new Intl.NumberFormat('en-US');

const VIEW_LABELS: Record<AssigneeView, string> = { all: 'Everyone’s', me: 'Assigned to me', none: 'Unassigned' };
const DUE_LABELS: Record<DueView, string> = { any: 'Any deadline', overdue: 'Overdue', today: 'Due today', week: 'Due this week' };
const DECISION_LABELS: Record<DecisionView, string> = { any: 'Any decision', overdue: 'Decision overdue', today: 'Decision due today' };
const SORT_LABELS: Record<AdminSort, string> = { created: 'Newest first', due: 'Due soonest', rating: 'Best rated', decision: 'Decision queue' };

/**
 * The review desk (SPEC §2, CONTRACT §14). Its list state is a reducer (desk-state.ts, through
 * useDeskList), its keys a hook (desk-shortcuts.ts) and the digest's link another
 * (use-deep-link.ts); what stays here is which dialog is open and the markup.
 */
export function AdminDashboard({ user }: { user: PublicUser }) {
  useDocumentTitle('Admin Dashboard');
  const unread = useUnreadMessageCount();
  const activity = useUnseenActivity();
  const newFromArtists = activity.total;
  const { state, dispatch, query, filtered, list, rows: submissions, pager, activeRow, allPicked } = useDeskList();
  const { filters, page, picked, active } = state;
  const setFilter = (change: Partial<DeskFilters>) => dispatch({ type: 'filter', filters: change });
  const data = list.data;
  const total = data?.total ?? 0;
  const [selected, setSelected] = useState<AdminSubmission | null>(null);
  const [deleting, setDeleting] = useState<AdminSubmission | null>(null);
  const [statusTarget, setStatusTarget] = useState<{ submission: AdminSubmission; status: AdminSettableStatus } | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  // Below `md` the list is cards (issue 23): a phone has no room for eleven columns.
  const wide = useMediaQuery(WIDE_SCREEN_QUERY);
  useDeepLinkedSubmission(setSelected);

  // Seen (issue 33 part 4): a submission's news once its details are open; a withdrawn one's once
  // the desk, where its row is gone, is on screen.
  // Each piece of news is reported once per visit: a report that failed is not repeated in a loop.
  const reported = useRef(new Set<string>());
  const unseenIds = activity.submissions.map((a) => `${a.submissionId}:${a.latestAt}:${a.gone}`).join(',');
  useEffect(() => {
    const seen = activity.submissions
      .filter((a) => (a.gone || a.submissionId === selected?.id) && !reported.current.has(`${a.submissionId}:${a.latestAt}`))
      .map((a) => {
        reported.current.add(`${a.submissionId}:${a.latestAt}`);
        return a.submissionId;
      });
    if (seen.length > 0) void markActivitySeen(seen).catch(() => undefined);
    // unseenIds stands for activity.submissions, whose identity changes with every read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [unseenIds, selected?.id]);

  const pick = (index: number, checked: boolean, range: boolean) => dispatch({ type: 'pick', rows: submissions, index, checked, range });
  /** What a table row and a phone's card of the list both take: the same facts and actions. */
  const itemProps = (s: AdminSubmission, index: number): RowProps => ({
    submission: s,
    newActivity: activity.submissions.find((a) => a.submissionId === s.id),
    active: activeRow?.id === s.id,
    selected: picked.has(s.id),
    onSelect: (event: MouseEvent, checked: boolean) => pick(index, checked, event.shiftKey),
    onActivate: () => dispatch({ type: 'focus', index }),
    onOpen: () => {
      dispatch({ type: 'focus', index });
      setSelected(s);
    },
    onDelete: () => setDeleting(s),
  });

  useDeskShortcuts(submissions.length > 0, (shortcut, event) => {
    const row = activeRow!;
    if (shortcut.kind === 'move') dispatch({ type: 'move', by: shortcut.by, rowCount: submissions.length });
    else if (shortcut.kind === 'open') setSelected(row);
    else if (shortcut.kind === 'pick') pick(Math.min(active, submissions.length - 1), !picked.has(row.id), event.shiftKey);
    else if (shortcut.kind === 'search') searchRef.current?.focus();
    else setStatusTarget({ submission: row, status: shortcut.status });
  });

  // Keep the focused row in view as j/k move through a long page.
  useEffect(() => {
    document.querySelector('[data-desk-list] [data-active]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  return (
    <div className="min-h-dvh">
      <AdminHeader user={user} unreadMessages={unread} newFromArtists={newFromArtists} />
      <main className="mx-auto grid w-full max-w-7xl grid-cols-1 gap-3 px-4 py-3 sm:px-6 lg:px-8">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">Admin Dashboard</h1>
          <p className="text-sm text-muted-foreground">Review submissions, update their status and keep the artists in the loop.</p>
        </div>

        <AdminStatCards stats={data?.stats} status={filters.status} onStatus={(status) => setFilter({ status })} />

        <Card className="gap-0 overflow-hidden p-0">
          {/*
            The search, Templates and CSV on the heading's line; the filters on their own below, so the
            search is wide enough for its whole placeholder at 1280 px (issue 43: "Search title, ar").
          */}
          {/* Tight padding: with the second line the laptop's list still shows its 12 whole rows (CONTRACT §14). */}
          <div className="grid gap-1.5 border-b px-3 py-1.5">
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="mr-auto shrink-0 text-lg font-semibold sm:mr-0">All Submissions</h2>
              <SearchField
                ref={searchRef}
                className="order-last w-full sm:order-none sm:w-auto sm:min-w-72 sm:flex-1 lg:max-w-md"
                label="Search submissions"
                placeholder="Search title, artist or email..."
                value={filters.search}
                onChange={(e) => setFilter({ search: e.target.value })}
                // The clear button below is the one way to clear it; the browser's own would be a second ×.
                inputClassName="h-9 pr-9 [&::-webkit-search-cancel-button]:appearance-none"
                maxLength={200}
              >
                {filters.search ? (
                  <button type="button" onClick={() => setFilter({ search: '' })} aria-label="Clear search" className="absolute top-1/2 right-2 -translate-y-1/2 cursor-pointer rounded p-1 text-muted-foreground hover:text-foreground">
                    <X className="size-4" aria-hidden />
                  </button>
                ) : null}
              </SearchField>
              <AwaySwitch />
              <ReviewTemplatesDialog />
              <Button asChild variant="outline" size="sm" className="h-9">
                <a href={csvExportUrl(query)} download title="Export this list as CSV">
                  <Download aria-hidden />
                  <span className="sr-only sm:not-sr-only">CSV</span>
                </a>
              </Button>
            </div>
            <div className="flex flex-wrap items-center gap-2 lg:justify-end">
              <Select value={filters.view} onValueChange={(view) => setFilter({ view: view as AssigneeView })}>
                <SelectTrigger aria-label="Assigned to" className="h-9 w-[calc(50%-0.25rem)] sm:w-36">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {ASSIGNEE_VIEWS.map((v) => (
                    <SelectItem key={v} value={v}>
                      {VIEW_LABELS[v]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <Select value={filters.status} onValueChange={(status) => setFilter({ status })}>
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
              <Input value={filters.tagInput} onChange={(e) => setFilter({ tagInput: e.target.value })} placeholder="Tag" aria-label="Filter by tag" className="h-9 w-[calc(50%-0.25rem)] sm:w-20" maxLength={TAG_MAX_LENGTH} />
              <Select value={filters.dueView} onValueChange={(due) => setFilter({ dueView: due as DueView })}>
                <SelectTrigger aria-label="Filter by deadline" className="h-9 w-[calc(50%-0.25rem)] sm:w-36">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {DUE_VIEWS.map((d) => (
                    <SelectItem key={d} value={d}>
                      {DUE_LABELS[d]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <Select value={filters.decisionView} onValueChange={(decision) => setFilter({ decisionView: decision as DecisionView })}>
                <SelectTrigger aria-label="Filter by decision date" className="h-9 w-[calc(50%-0.25rem)] sm:w-36">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {DECISION_VIEWS.map((d) => (
                    <SelectItem key={d} value={d}>
                      {DECISION_LABELS[d]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <Select value={filters.rightsView} onValueChange={(rights) => setFilter({ rightsView: rights as RightsView })}>
                <SelectTrigger aria-label="Filter by rights" className="h-9 w-[calc(50%-0.25rem)] sm:w-40">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {RIGHTS_VIEWS.map((r) => (
                    <SelectItem key={r} value={r}>
                      {r === 'any' ? 'Any rights' : RIGHTS_STATE_LABELS[r]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <Select value={filters.viralView} onValueChange={(viral) => setFilter({ viralView: viral as ViralView })}>
                <SelectTrigger aria-label="Filter by viral screen" className="h-9 w-[calc(50%-0.25rem)] sm:w-36">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {VIRAL_VIEWS.map((v) => (
                    <SelectItem key={v} value={v}>
                      {v === 'any' ? 'Any views' : 'Suspect viral hits'}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <Select value={filters.sort} onValueChange={(sort) => setFilter({ sort: sort as AdminSort })}>
                <SelectTrigger aria-label="Sort" className="h-9 w-[calc(50%-0.25rem)] sm:w-36">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {DESK_SORTS.map((sort) => (
                    <SelectItem key={sort} value={sort}>
                      {SORT_LABELS[sort]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>

          {picked.size ? <BulkBar selected={[...picked.values()]} onClear={() => dispatch({ type: 'clear-picks' })} /> : null}

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
          ) : !wide ? (
            <div data-desk-list>
              <div className="flex items-center gap-3 border-b bg-muted/30 px-3 py-2 text-sm text-muted-foreground">
                <Checkbox
                  id="desk-pick-all"
                  className="size-5"
                  checked={allPicked}
                  onCheckedChange={(checked) => dispatch({ type: 'pick-all', rows: submissions, checked: checked === true })}
                />
                <label htmlFor="desk-pick-all">Select all on this page</label>
              </div>
              <ul className={`transition-opacity ${list.isPlaceholderData ? 'opacity-60' : ''}`} aria-label="Submissions" aria-busy={list.isFetching} data-search={query.q}>
                {submissions.map((s, index) => (
                  <AdminSubmissionCard key={s.id} {...itemProps(s, index)} />
                ))}
              </ul>
            </div>
          ) : (
            <div className="overflow-x-auto" data-desk-list>
              <table className={`w-full min-w-[75rem] table-fixed xl:min-w-0 text-sm transition-opacity ${list.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={list.isFetching} data-search={query.q}>
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
                        onCheckedChange={(checked) => dispatch({ type: 'pick-all', rows: submissions, checked: checked === true })}
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
                    <AdminSubmissionRow key={s.id} {...itemProps(s, index)} />
                  ))}
                </tbody>
              </table>
            </div>
          )}

          {total > 0 ? (
            <nav aria-label="Pagination" className="flex flex-col items-center justify-between gap-2 border-t p-2 text-sm sm:flex-row sm:px-4">
              <p className="text-muted-foreground tabular-nums" data-testid="admin-range">
                Showing {number.format(pager.firstShown)}–{number.format(pager.lastShown)} of{' '}
                {number.format(total)}
                {data?.totalCapped ? '+' : ''}
              </p>
              <p className="hidden text-xs text-muted-foreground xl:block">
                <span className="sr-only">Keyboard shortcuts: </span>
                <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>x</kbd> select · <kbd>a</kbd> approve · <kbd>u</kbd> under review · <kbd>r</kbd> reject · <kbd>c</kbd> complete · <kbd>p</kbd> pending · <kbd>/</kbd> search
              </p>
              <div className="flex items-center gap-2">
                <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => dispatch({ type: 'turn-page', page: page - 1 })} aria-label="Previous page">
                  <ChevronLeft aria-hidden />
                  <span className="hidden sm:inline">Previous</span>
                </Button>
                <span className="tabular-nums text-muted-foreground">
                  Page {number.format(page)} of {number.format(pager.pages)}
                  {data?.totalCapped ? '+' : ''}
                </span>
                <Button variant="outline" size="sm" disabled={!pager.hasNext} onClick={() => dispatch({ type: 'turn-page', page: page + 1 })} aria-label="Next page">
                  <span className="hidden sm:inline">Next</span>
                  <ChevronRight aria-hidden />
                </Button>
              </div>
            </nav>
          ) : null}
        </Card>
        <BonusLedger />
        <PayeesList />
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
