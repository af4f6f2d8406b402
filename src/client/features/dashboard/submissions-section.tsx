import { Inbox, SearchX } from 'lucide-react';
import { lazy, Suspense, useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import type { Submission } from '@shared/submission-schemas';
import { SUBMISSION_STATUSES, STATUS_LABELS, matchesDashboardFilter, type DashboardFilter } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { useArtistStats, useMarkSeen, useSubmission, useSubmissions } from '@client/entities/submission/submission-queries';
import { NewSubmissionButton } from '@client/entities/submission/new-submission-button';
import { StatCards } from './stat-cards';
import { SubmissionRow } from './submission-row';
import { LoadingBlock } from '@client/components/loading-block';

/** The dialog brings the audio player; both load when a submission is first opened. */
const SubmissionDetailsDialog = lazy(() =>
  import('./submission-details-dialog').then((module) => ({ default: module.SubmissionDetailsDialog })),
);

/** Stat cards, the filtered list and the details dialog (SPEC §2). */
export function SubmissionsSection() {
  const [filter, setFilter] = useState<DashboardFilter>('all');
  // Emails link to /dashboard?submission={id}: that submission opens once it is loaded.
  const [viewingId, setViewingId] = useState<string | null>(() => new URLSearchParams(window.location.search).get('submission'));
  const submissions = useSubmissions();
  const stats = useArtistStats();
  const { mutate: markSeen } = useMarkSeen();
  // The rows are drawn in a transition once the list arrives: React draws them in slices and the
  // browser stays responsive, where drawing them at once was one long task on a phone (issue 37).
  // Until then the list still reads as loading.
  const drawn = useDeferredValue(submissions.isSuccess ? submissions.list : null);
  const all = drawn ?? [];
  // The list holds the pages loaded so far; the status filter narrows those (the API pages by date only).
  // "All" lists the drafts too, to be continued, but counts as the cards do: drafts apart.
  const shown = filter === 'all' ? all : all.filter((s) => matchesDashboardFilter(s.status, filter));
  const drafts = shown.filter((s) => s.status === 'draft').length;
  // Looked up in the list, so the dialog shows the latest state (after a tier change, for one).
  const listed = viewingId ? submissions.list.find((s) => s.id === viewingId) : undefined;
  // An email's link may name an older submission than the first page holds: that one is read alone.
  const single = useSubmission(viewingId !== null && submissions.isSuccess && !listed ? viewingId : null);
  const viewing = listed ?? single.data ?? null;
  // Opened, by a click or by an email's link alike: its "Updated" marker goes.
  const unseenId = viewing?.hasUnseenUpdate ? viewing.id : null;
  useEffect(() => {
    if (unseenId) markSeen(unseenId);
  }, [unseenId, markSeen]);
  const view = (submission: Submission) => setViewingId(submission.id);

  return (
    <section className="grid gap-6" aria-labelledby="submissions-heading">
      <StatCards stats={stats.data} filter={filter} onFilter={setFilter} />
      <Card className="overflow-hidden">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b px-4 py-3 sm:px-6">
          <h2 id="submissions-heading" className="text-lg font-semibold">
            Your Submissions ({shown.length - drafts}){' '}
            {drafts ? (
              <span data-testid="draft-count" className="text-sm font-normal text-muted-foreground">
                and {drafts === 1 ? '1 draft' : `${drafts} drafts`}
              </span>
            ) : null}
          </h2>
          <label className="flex items-center gap-2 text-sm text-muted-foreground">
            Status
            <select
              data-testid="status-filter"
              value={filter}
              onChange={(event) => setFilter(event.target.value as DashboardFilter)}
              className="h-9 rounded-md border border-input bg-background/60 px-2 text-sm text-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <option value="all">All statuses</option>
              {SUBMISSION_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          </label>
        </div>
        {submissions.isError ? (
          <p role="alert" className="p-6 text-sm text-destructive-soft">
            Your submissions could not be loaded: {errorMessage(submissions.error)}
          </p>
        ) : drawn === null ? (
          <LoadingBlock label="Loading submissions" className="p-10" />
        ) : all.length === 0 ? (
          <EmptyState icon={<Inbox className="size-6" aria-hidden />} title="No submissions yet" text="Start by submitting your first track">
            <NewSubmissionButton />
          </EmptyState>
        ) : shown.length === 0 ? (
          <>
            <EmptyState icon={<SearchX className="size-6" aria-hidden />} title="No submissions in this category" text="Submissions will appear here when they match this status.">
              {submissions.hasNextPage ? (
                <p data-testid="filter-more-note" className="text-sm text-muted-foreground">
                  Only your latest {all.length} submissions are loaded; older ones may match. Load more to look through them.
                </p>
              ) : null}
            </EmptyState>
            <LoadMore submissions={submissions} />
          </>
        ) : (
          <div className="md:overflow-x-auto">
            <table className="w-full text-sm max-md:block md:min-w-[760px]">
              <thead className="max-md:hidden">
                <tr className="border-b text-left text-xs tracking-wide text-muted-foreground uppercase">
                  <th scope="col" className="py-3 pr-4 pl-4 font-medium">Track</th>
                  <th scope="col" className="py-3 pr-4 font-medium">Date</th>
                  <th scope="col" className="py-3 pr-4 font-medium">Status</th>
                  <th scope="col" className="py-3 pr-4 font-medium">Type</th>
                  <th scope="col" className="py-3 pr-4 text-right font-medium">Actions</th>
                </tr>
              </thead>
              <tbody className="max-md:block">
                {shown.map((submission) => (
                  <SubmissionRow key={submission.id} submission={submission} onView={view} />
                ))}
              </tbody>
            </table>
            <LoadMore submissions={submissions} />
          </div>
        )}
      </Card>
      {viewing ? (
        <Suspense fallback={null}>
          <SubmissionDetailsDialog
            submission={viewing}
            onClose={() => {
              setViewingId(null);
              // The link's job is done: a reload should not open it again.
              if (window.location.search.includes('submission=')) window.history.replaceState(null, '', window.location.pathname);
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

/** The next older page; shown under a filtered list too, whose matches may be on it. */
function LoadMore({ submissions }: { submissions: ReturnType<typeof useSubmissions> }) {
  if (!submissions.hasNextPage) return null;
  return (
    <div className="flex justify-center border-t p-4">
      <Button variant="outline" onClick={() => void submissions.fetchNextPage()} disabled={submissions.isFetchingNextPage}>
        {submissions.isFetchingNextPage ? <Spinner aria-hidden /> : null}
        {submissions.isFetchingNextPage ? 'Loading...' : 'Load more'}
      </Button>
    </div>
  );
}

function EmptyState({ icon, title, text, children }: { icon: ReactNode; title: string; text: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-primary/15 text-primary-soft">{icon}</span>
      <h3 className="text-base font-semibold">{title}</h3>
      <p className="text-sm text-muted-foreground">{text}</p>
      {children}
    </div>
  );
}
