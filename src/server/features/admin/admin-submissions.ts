import { and, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { displayName } from '@shared/users';
import { DEADLINE_ENDING_STATUSES, type ScreenStatus } from '@shared/production';
import { publicationAdvice } from '@shared/production-texts';
import { MAX_ROUND, PUBLISHABLE_STATUSES, PAYMENT_DUE_STATUSES, statusLabel, type SubmissionStatus } from '@shared/submissions';
import type { AdminStats, AdminSubmission, DeskPublishing } from '@shared/submission-schemas';
import type { Db, Tx } from '../../platform/db/client';
import { likePattern } from '../../platform/db/like-pattern';
import {
  agreementSignatures,
  publications,
  submissionDesk,
  submissions,
  submissionStatusCounts,
  users,
  type SubmissionDeskRow,
  type SubmissionRow,
  type UserRow,
  youtubeUploads,
} from '../../platform/db/schema';
import type { EmailKinds, EmailQueue } from '../../domain/email/email-kinds';
import type { QueueEmail } from '../../platform/email/outbox';
import { apiError } from '../../platform/errors';
import { toPublicProfile } from '../../platform/public-user';
import { toSubmission } from '../../domain/submission/to-submission';
import { transitionSubmissions } from '../../domain/submission/transition';
import { queueOrder, waitingForDecision } from '../../domain/submission/decision-queue';
import { readHistory, recordHistory, recordHistoryRows } from '../../domain/submission/history';
import type { AdminListQuery, AdminSubmissionPage, StatusChangeInput, SubmissionHistoryEntry } from '@shared/admin';
import { fillReviewTemplate, type DeskState, type TeamMember } from '@shared/review-desk';
import type { DeskRightsState } from '@shared/rights';
import { VERSION_TEXTS } from '@shared/versions';

const assignees = alias(users, 'assignees');

type Member = Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName' | 'artistName'>;

export function toTeamMember(user: Member): TeamMember {
  return { id: user.id, name: displayName(user) || user.email || 'Unknown' };
}

function toDeskState(desk: SubmissionDeskRow | null, assignee: Member | null): DeskState {
  return {
    assignee: desk?.assigneeId && assignee?.id ? toTeamMember(assignee) : null,
    tags: desk?.tags ?? [],
    ratingAverage: desk?.ratingAverage == null ? null : Math.round(desk.ratingAverage * 10) / 10,
    ratingCount: desk?.ratingCount ?? 0,
    listenedShare: desk?.listenedShare ?? 0,
  };
}

type PublishingColumns = {
  state: DeskPublishing['state'] | null;
  attempts: number | null;
  error: string | null;
  errorReason: string | null;
  createdAt: Date | null;
  updatedAt: Date | null;
};

function toDeskPublishing(p: PublishingColumns & { state: DeskPublishing['state'] }): DeskPublishing {
  const attempts = p.attempts ?? 0;
  const triedForMs = p.createdAt && p.updatedAt ? p.updatedAt.getTime() - p.createdAt.getTime() : 0;
  return { state: p.state, attempts, errorReason: p.errorReason, advice: publicationAdvice({ ...p, attempts, triedForMs }) };
}

function toAdminSubmission(
  row: SubmissionRow,
  user: UserRow | null,
  desk: SubmissionDeskRow | null = null,
  assignee: Member | null = null,
  publishing: PublishingColumns | null = null,
  rights: DeskRightsState | null = null,
  viralScreen: ScreenStatus | null = null,
): AdminSubmission {
  return {
    ...toSubmission(row),
    adminNotes: row.adminNotes,
    user: user ? toPublicProfile(user) : null,
    desk: toDeskState(desk, assignee),
    publishing: publishing?.state ? toDeskPublishing({ ...publishing, state: publishing.state }) : null,
    rights,
    viralScreen,
  };
}

const signatureOf = sql`${agreementSignatures.submissionId} = ${submissions.id}`;
/**
 * Where the rights stand (DeskRightsState), in SQL so the list reads and filters it with the page:
 * the same rule as missingRights in domain/submission/rights.ts (the agreement first, then the
 * allowlist where Content ID is yes or unknown), null before approval. No agreement yet counts as
 * unsigned, as its signatures are made with it.
 */
export const rightsStateSql = sql<DeskRightsState | null>`(case
  when ${submissions.status} not in (${sql.join(PUBLISHABLE_STATUSES.map((s) => sql`${s}`), sql`, `)}) then null
  when not exists (select 1 from ${agreementSignatures} where ${signatureOf} and ${agreementSignatures.signedAt} is not null) then 'unsigned'
  when exists (select 1 from ${agreementSignatures} where ${signatureOf} and ${agreementSignatures.signedAt} is null) then 'partly_signed'
  when ${submissions.contentId} <> 'no' and ${submissions.allowlistDoneAt} is null then 'allowlist_pending'
  else 'complete' end)`;

/** The viral screen of the submission's hit (CONTRACT §25), null once the second look withdrew the hit. */
const viralScreenSql = sql<ScreenStatus | null>`(select case when ${publications.hitWithdrawnAt} is null then ${publications.screenStatus} end
  from ${publications} where ${publications.submissionId} = ${submissions.id})`;

/** The submission, its submitter, its desk state and assignee: what every admin view reads. */
const adminRowColumns = {
  submission: submissions,
  user: users,
  desk: submissionDesk,
  assignee: {
    id: assignees.id,
    email: assignees.email,
    firstName: assignees.firstName,
    lastName: assignees.lastName,
    artistName: assignees.artistName,
  },
  // Read from the table the publishing job writes; the desk never asks YouTube (CONTRACT §23).
  publishing: {
    state: youtubeUploads.state,
    attempts: youtubeUploads.attempts,
    error: youtubeUploads.error,
    errorReason: youtubeUploads.errorReason,
    createdAt: youtubeUploads.createdAt,
    updatedAt: youtubeUploads.updatedAt,
  },
  rights: rightsStateSql,
  viralScreen: viralScreenSql,
};

/** Drafts are their artist's alone (CONTRACT §12): the desk neither lists, counts nor opens them. */
export const notADraft = ne(submissions.status, 'draft');
export const isDeskSubmission = (id: string) => and(eq(submissions.id, id), notADraft);

/**
 * The list's filter. The search is a case-insensitive substring of song title, artist name or the
 * submitter's email; each side has a trigram index, and the email side is turned into a list of
 * user ids first so PostgreSQL can OR three index scans together instead of scanning the join.
 */
export type ListFilter = Pick<AdminListQuery, 'status' | 'q' | 'assignee' | 'tag' | 'paid' | 'due' | 'rights' | 'viral' | 'decision'>;

/** Whether the filter narrows by the desk or payment, which the status counters cannot answer. */
const narrowsBeyondStatus = (f: ListFilter) => Boolean(f.q || f.assignee || f.tag || f.due || f.rights || f.viral || f.decision || f.paid !== undefined);

/**
 * Decisions (CONTRACT §26): what waits for the team (decision-queue.ts) and is past its promised
 * date, or due before the end of today (UTC; overdue included, as a day's work list).
 */
function decisionCondition(decision: NonNullable<ListFilter['decision']>): SQL {
  if (decision === 'overdue') return and(waitingForDecision(), sql`${submissions.decisionDueAt} < now()`)!;
  return and(waitingForDecision(), sql`${submissions.decisionDueAt} < date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' + interval '1 day'`)!;
}

/**
 * Deadlines (CONTRACT §13): what is still owed (no delivery yet) and past due, due before the end
 * of today (UTC; overdue included, as a day's work list) or within the next 7 days.
 */
/** standingDueAt's rule in SQL: a deadline not delivered and not ended by a rejection, refund or publication. */
const deadlineStands = sql`${submissions.deliveredAt} is null and ${submissions.dueAt} is not null
  and ${submissions.status} not in (${sql.join(DEADLINE_ENDING_STATUSES.map((s) => sql`${s}`), sql`, `)})
  and ${submissions.paymentStatus} is distinct from 'refunded' and ${submissions.refundRequestedAt} is null`;

function dueCondition(due: NonNullable<ListFilter['due']>): SQL {
  const open = deadlineStands;
  if (due === 'overdue') return sql`${open} and ${submissions.dueAt} < now()`;
  if (due === 'today') return sql`${open} and ${submissions.dueAt} < date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' + interval '1 day'`;
  return sql`${open} and ${submissions.dueAt} < now() + interval '7 days'`;
}

export function listFilter({ status, q, assignee, tag, paid, due, rights, viral, decision }: ListFilter, adminId: string): SQL | undefined {
  const conditions: (SQL | undefined)[] = [notADraft];
  if (due) conditions.push(dueCondition(due));
  if (viral) conditions.push(sql`${viralScreenSql} = ${viral}`);
  if (decision) conditions.push(decisionCondition(decision));
  if (rights) conditions.push(sql`${rightsStateSql} = ${rights}`);
  if (status) conditions.push(eq(submissions.status, status));
  if (assignee === 'none') {
    conditions.push(
      sql`not exists (select 1 from ${submissionDesk} where ${submissionDesk.submissionId} = ${submissions.id} and ${submissionDesk.assigneeId} is not null)`,
    );
  } else if (assignee) {
    const who = assignee === 'me' ? adminId : assignee;
    conditions.push(sql`${submissions.id} in (select ${submissionDesk.submissionId} from ${submissionDesk} where ${submissionDesk.assigneeId} = ${who})`);
  }
  if (tag) {
    conditions.push(
      sql`${submissions.id} in (select ${submissionDesk.submissionId} from ${submissionDesk} where ${submissionDesk.tags} @> array[${tag}]::text[])`,
    );
  }
  // Paid: the payment succeeded. Unpaid: a paid tier whose payment has not (yet, or any more).
  if (paid === true) conditions.push(eq(submissions.paymentStatus, 'succeeded'));
  if (paid === false) {
    conditions.push(sql`${submissions.pricingTier} <> 'free' and ${submissions.paymentStatus} is distinct from 'succeeded'`);
  }
  if (q) {
    const pattern = likePattern(q);
    conditions.push(
      or(
        ilike(submissions.songTitle, pattern),
        ilike(submissions.artistName, pattern),
        sql`${submissions.userId} = any(array(select ${users.id} from ${users} where ${users.email} ilike ${pattern}))`,
      ),
    );
  }
  return and(...conditions);
}

/** Submissions per status, from the trigger-kept counter table: its shards summed (one tiny read, any table size). */
async function statusCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ status: submissionStatusCounts.status, count: sql<number>`sum(${submissionStatusCounts.count})::int` })
    .from(submissionStatusCounts)
    .groupBy(submissionStatusCounts.status);
  return new Map(rows.map((r) => [r.status, r.count]));
}

/** The four dashboard counts (CONTRACT §8), and the submissions awaiting payment (see AdminStats). */
function toAdminStats(counts: Map<string, number>): AdminStats {
  let total = 0;
  for (const [status, n] of counts) if (status !== 'draft') total += n;
  return {
    total,
    pending: counts.get('pending') ?? 0,
    underReview: counts.get('under_review') ?? 0,
    approved: counts.get('approved') ?? 0,
    awaitingPayment: PAYMENT_DUE_STATUSES.reduce((sum, status) => sum + (counts.get(status) ?? 0), 0),
  };
}

/**
 * How many rows a search may count before it stops: counting every match of a broad search
 * costs as much as reading them all, and past this many an A&R person refines the search.
 */
export const SEARCH_COUNT_CAP = 1000;

async function countMatching(
  db: Db,
  query: AdminListQuery,
  adminId: string,
  counts: Map<string, number>,
  stats: AdminStats,
): Promise<{ total: number; capped: boolean }> {
  // Filtered by status alone (or not at all), the counter table holds the answer.
  if (!narrowsBeyondStatus(query)) {
    return { total: query.status ? (query.status === 'draft' ? 0 : (counts.get(query.status) ?? 0)) : stats.total, capped: false };
  }
  const matches = db
    .select({ one: sql`1` })
    .from(submissions)
    .where(listFilter(query, adminId))
    .limit(SEARCH_COUNT_CAP + 1)
    .as('matches');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(matches);
  const n = row?.n ?? 0;
  return n > SEARCH_COUNT_CAP ? { total: SEARCH_COUNT_CAP, capped: true } : { total: n, capped: false };
}

export const newestFirst = [desc(submissions.createdAt), desc(submissions.id)];
/** Best rated first; unrated after every rated one; newest first among equals. */
const bestRatedFirst = [sql`${submissionDesk.ratingAverage} desc nulls last`, ...newestFirst];
/** Soonest deadline first; delivered, ended ones and those without a deadline after every open one. */
const soonestDueFirst = [
  sql`(case when ${deadlineStands} then ${submissions.dueAt} end) asc nulls last`,
  ...newestFirst,
];

/** The queue first, in its own order (paid before free, then the decision date); the rest newest first. */
const queueFirst = [sql`(case when ${waitingForDecision()} then 0 else 1 end) asc`, ...queueOrder(), ...newestFirst];

/**
 * GET /api/admin/submissions: one page, newest first, with the submitter and the stats. The
 * page's ids come from the (created_at, id) index alone; only those 50 rows are then read and
 * joined, so a deep page costs an index walk rather than 50,000 joined rows.
 */
export async function listAdminSubmissions(db: Db, adminId: string, query: AdminListQuery): Promise<AdminSubmissionPage> {
  const { page, pageSize } = query;
  const order = query.sort === 'rating' ? bestRatedFirst : query.sort === 'due' ? soonestDueFirst : query.sort === 'decision' ? queueFirst : newestFirst;
  const ids = db.select({ id: submissions.id }).from(submissions);
  const pageIds = (query.sort === 'rating' ? ids.leftJoin(submissionDesk, eq(submissionDesk.submissionId, submissions.id)) : ids)
    .where(listFilter(query, adminId))
    .orderBy(...order)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .as('page_ids');
  const rows = await db
    .select(adminRowColumns)
    .from(pageIds)
    .innerJoin(submissions, eq(submissions.id, pageIds.id))
    .leftJoin(users, eq(users.id, submissions.userId))
    .leftJoin(submissionDesk, eq(submissionDesk.submissionId, submissions.id))
    .leftJoin(assignees, eq(assignees.id, submissionDesk.assigneeId))
    .leftJoin(youtubeUploads, eq(youtubeUploads.submissionId, submissions.id))
    .orderBy(...order);
  const counts = await statusCounts(db);
  const stats = toAdminStats(counts);
  // A short first page is the whole result: no count needed.
  const { total, capped } =
    page === 1 && rows.length < pageSize ? { total: rows.length, capped: false } : await countMatching(db, query, adminId, counts, stats);
  return {
    submissions: rows.map((r) => toAdminSubmission(r.submission, r.user, r.desk, r.assignee, r.publishing, r.rights, r.viralScreen)),
    stats,
    total,
    totalCapped: capped,
    page,
    pageSize,
  };
}

/** GET /api/admin/submissions/{id}. */
export async function findAdminSubmission(db: Db, id: string): Promise<AdminSubmission> {
  const [row] = await db
    .select(adminRowColumns)
    .from(submissions)
    .leftJoin(users, eq(users.id, submissions.userId))
    .leftJoin(submissionDesk, eq(submissionDesk.submissionId, submissions.id))
    .leftJoin(assignees, eq(assignees.id, submissionDesk.assigneeId))
    .leftJoin(youtubeUploads, eq(youtubeUploads.submissionId, submissions.id))
    .where(isDeskSubmission(id))
    .limit(1);
  if (!row) throw apiError('submission_not_found');
  return toAdminSubmission(row.submission, row.user, row.desk, row.assignee, row.publishing, row.rights, row.viralScreen);
}

type StatusChange = { status: NonNullable<StatusChangeInput['status']>; review?: string | null | undefined };

/** What a status change reads of each submission, locked FOR UPDATE by the caller. */
export const statusChangeColumns = {
  id: submissions.id,
  status: submissions.status,
  review: submissions.adminReview,
  userId: submissions.userId,
  artistName: submissions.artistName,
  songTitle: submissions.songTitle,
  round: submissions.round,
};
type StatusChangeTarget = { id: string; status: SubmissionStatus; review: string | null; userId: string; artistName: string; songTitle: string; round: number };

/**
 * PATCH .../status: sets the status and, when given, the review the artist reads (its
 * `{artistName}`/`{songTitle}` filled in); records who reviewed and when, and one history row per
 * field that actually changed. Pass a transaction to make it part of a larger change (it then
 * runs in a savepoint of it).
 */
export async function changeSubmissionStatus(db: Db, outbox: EmailQueue, adminId: string, id: string, input: StatusChange): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select(statusChangeColumns).from(submissions).where(isDeskSubmission(id)).for('update');
    if (!current) throw apiError('submission_not_found');
    await applyStatusChange(tx, outbox, adminId, [current], input);
  });
}

/**
 * The status change of one or many submissions (the single route and the bulk action share it,
 * so a bulk change is exactly the single one applied to each): the status through the one
 * transition (domain/submission/transition.ts: one UPDATE, one INSERT of status rows), then the
 * reviews that changed in one more UPDATE and INSERT, and one batch of outbox emails, whatever the
 * number of submissions. The caller has locked `targets` in its transaction.
 */
export async function applyStatusChange(tx: Tx, outbox: EmailQueue, adminId: string, targets: StatusChangeTarget[], input: StatusChange): Promise<void> {
  if (targets.length === 0) return;
  const now = new Date();
  const planned = targets.map((current) => {
    const review = typeof input.review === 'string' ? fillReviewTemplate(input.review, current) : input.review;
    return { current, review, reviewChanged: review !== undefined && review !== current.review };
  });
  // Asking for a new version is its own move (CONTRACT §27): only while the team is still deciding.
  const reason = input.status === 'changes_requested' ? 'changes_requested' : 'review';
  // Nor when the artist has no new version left to send (decision 197).
  if (input.status === 'changes_requested' && targets.some((t) => t.status !== 'changes_requested' && t.round >= MAX_ROUND)) {
    throw apiError('versions_exhausted', VERSION_TEXTS.limitReached);
  }
  await transitionSubmissions(tx, targets, { to: input.status, reason, by: adminId, now });
  // Who reviewed it last, and when: the desk's own columns, written beside the transition.
  await tx
    .update(submissions)
    .set({ adminReviewedAt: now, adminReviewedBy: adminId })
    .where(inArray(submissions.id, targets.map((t) => t.id)));
  const reviewed = planned.filter((p) => p.reviewChanged);
  if (reviewed.length) {
    const values = JSON.stringify(reviewed.map((p) => ({ id: p.current.id, review: p.review ?? null })));
    await tx.execute(sql`
      update ${submissions} set admin_review = v.review
      from jsonb_to_recordset(${values}::jsonb) as v(id text, review text)
      where ${submissions.id} = v.id`);
  }
  const history: Parameters<typeof recordHistoryRows>[1][number][] = [];
  const emails: QueueEmail<EmailKinds, 'status_changed' | 'changes_requested'>[] = [];
  for (const { current, review, reviewChanged } of planned) {
    if (reviewChanged) {
      history.push({ submissionId: current.id, kind: 'review', by: adminId, from: current.review, to: review ?? null, at: now });
    }
    // The artist hears of a new status, or of a new review on the same status (CONTRACT §10).
    if (input.status === 'changes_requested' && review && (current.status !== input.status || reviewChanged)) {
      // What to change, and how to answer (CONTRACT §27): its own email, not the plain status one.
      const versionsLeft = MAX_ROUND - current.round;
      emails.push({ kind: 'changes_requested', userId: current.userId, data: { submissionId: current.id, songTitle: current.songTitle, review, versionsLeft } });
    } else if (current.status !== input.status || (reviewChanged && review)) {
      emails.push({
        kind: 'status_changed',
        userId: current.userId,
        data: { submissionId: current.id, songTitle: current.songTitle, statusLabel: statusLabel(input.status), review: review ?? null },
      });
    }
  }
  await recordHistoryRows(tx, history);
  await outbox.queueMany(tx, emails);
}

/** PATCH .../notes: the team's internal notes, with a history row when they change. */
export async function saveSubmissionNotes(db: Db, adminId: string, id: string, notes: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ notes: submissions.adminNotes })
      .from(submissions)
      .where(isDeskSubmission(id))
      .for('update');
    if (!current) throw apiError('submission_not_found');
    if (current.notes === notes) return;
    const now = new Date();
    await tx.update(submissions).set({ adminNotes: notes, updatedAt: now }).where(eq(submissions.id, id));
    await recordHistory(tx, id, { kind: 'notes', by: adminId, from: current.notes, to: notes, at: now });
  });
}

/** The submitter of a submission, or "not found". */
async function submissionOwnerId(db: Db, id: string): Promise<string> {
  const [row] = await db.select({ userId: submissions.userId }).from(submissions).where(isDeskSubmission(id)).limit(1);
  if (!row) throw apiError('submission_not_found');
  return row.userId;
}

/** GET .../history: every recorded change of the submission, oldest first. */
export async function listSubmissionHistory(db: Db, id: string): Promise<SubmissionHistoryEntry[]> {
  await submissionOwnerId(db, id);
  const rows = await readHistory(db, id);
  return rows.map(({ entry, actor }) => ({
    id: entry.id,
    field: entry.field,
    fromValue: entry.fromValue,
    toValue: entry.toValue,
    createdAt: entry.createdAt.toISOString(),
    actor: actor?.id ? { id: actor.id, name: displayName(actor) || actor.email || 'Unknown' } : null,
  }));
}

/** GET /api/admin/team: every admin, by name, for the assignee picker. */
export async function listTeam(db: Db): Promise<TeamMember[]> {
  const rows = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, artistName: users.artistName })
    .from(users)
    .where(eq(users.role, 'admin'));
  return rows.map(toTeamMember).sort((a, b) => a.name.localeCompare(b.name));
}
