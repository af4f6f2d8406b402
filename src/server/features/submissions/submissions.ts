import { acceptedTerms } from './licence';
import { and, desc, eq, getTableColumns, inArray, isNotNull, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  SUBMISSION_MESSAGES,
  type AttachedFile,
  type SubmissionListItem,
  type createSubmissionSchema,
  type draftSubmissionSchema,
} from '@shared/submission-schemas';
import { TIERS, isPaidTier, objectPathOf, tierAmount, uploadIdFromObjectPath } from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import { submissions, uploads, type SubmissionRow, type UserRow } from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { apiError } from '../../platform/errors';
import { lockOwnSubmission } from '../../domain/submission/lock-own-submission';
import { newId } from '../../platform/ids';
import { transitionSubmissions } from '../../domain/submission/transition';
import { initialPaymentState } from '../../domain/submission/payment-state';
import { recordFirstVersion } from '../../domain/submission/versions';
import { queuePlacesOf } from '../../domain/submission/decision-queue';
import { agreementsAwaitingArtist } from '../../domain/submission/agreement';
import { toSubmission } from '../../domain/submission/to-submission';

type CreateSubmission = z.output<typeof createSubmissionSchema>;
type DraftChanges = z.output<typeof draftSubmissionSchema>;
type ArtistSubmissionRow = Omit<SubmissionRow, 'adminNotes'>;

/** Every column but the team's internal notes, which never leave the server for an artist. */
const { adminNotes: _adminNotes, ...artistColumns } = getTableColumns(submissions);

type FileKind = 'music' | 'video' | 'image';

interface FileReference {
  field: string;
  id: string | null;
  kind: FileKind;
}

type FileFields = Pick<CreateSubmission, 'musicFileUrl' | 'videoFileUrl' | 'artworkUrl' | 'styleReferenceUrls' | 'characterImageUrls'>;

function fileReferences(input: Partial<FileFields>): FileReference[] {
  const one = (field: keyof FileFields, kind: FileKind, path: string | null | undefined) =>
    path ? [{ field, id: uploadIdFromObjectPath(path), kind }] : [];
  const many = (field: keyof FileFields, paths: string[] | undefined) =>
    (paths ?? []).map((p, i) => ({ field: `${field}.${i}`, id: uploadIdFromObjectPath(p), kind: 'image' as const }));
  return [
    ...one('musicFileUrl', 'music', input.musicFileUrl),
    ...one('videoFileUrl', 'video', input.videoFileUrl),
    ...one('artworkUrl', 'image', input.artworkUrl),
    ...many('styleReferenceUrls', input.styleReferenceUrls),
    ...many('characterImageUrls', input.characterImageUrls),
  ];
}

const isOfKind = (kind: FileKind, contentType: string | null) => {
  if (kind === 'image') return !!contentType?.startsWith('image/');
  if (kind === 'video') return !!contentType?.startsWith('video/');
  return /^(audio|video)\//.test(contentType ?? '');
};

/**
 * Attaches the uploads a submission refers to, and lets go of the ones it no longer refers to
 * (the sweep of unattached uploads removes those). Each must be a checked upload of the same user
 * that is free or already this submission's; otherwise the whole change is refused with a 400, so
 * a refused file leaves nothing behind.
 */
async function attachFiles(tx: Tx, userId: string, submissionId: string, references: FileReference[], { isNew = false } = {}): Promise<void> {
  const ids = [...new Set(references.map((r) => r.id).filter((id): id is string => id !== null))];
  const attached = ids.length
    ? await tx
        .update(uploads)
        .set({ submissionId })
        .where(
          and(
            inArray(uploads.id, ids),
            eq(uploads.userId, userId),
            or(isNull(uploads.submissionId), eq(uploads.submissionId, submissionId)),
            isNotNull(uploads.contentType),
          ),
        )
        .returning({ id: uploads.id, contentType: uploads.contentType })
    : [];
  const contentTypes = new Map(attached.map((u) => [u.id, u.contentType]));
  const refused = references.filter((r) => !r.id || !isOfKind(r.kind, contentTypes.get(r.id) ?? null));
  if (refused.length > 0) {
    throw apiError(
      'file_not_yours',
      SUBMISSION_MESSAGES.objectPath,
      refused.map((r) => ({ path: r.field, message: SUBMISSION_MESSAGES.objectPath })),
    );
  }
  // A submission made in this transaction holds nothing else to let go of.
  if (isNew) return;
  await tx
    .update(uploads)
    .set({ submissionId: null })
    .where(and(eq(uploads.submissionId, submissionId), ids.length ? notInArray(uploads.id, ids) : undefined));
}

/** The server-set part of a submission that goes to the label: amount and payment from the tier. */
function submittedState(input: CreateSubmission) {
  return {
    amount: tierAmount(input.pricingTier),
    ...initialPaymentState(input.pricingTier),
    draftStep: null,
  };
}

/**
 * The move that sends a submission to the label, through the one transition: free → pending,
 * paid → awaiting payment; recorded with the artist as who and `submitted` as why.
 */
async function sendToLabel(tx: Tx, row: ArtistSubmissionRow): Promise<ArtistSubmissionRow> {
  const to = isPaidTier(row.pricingTier) ? 'payment_pending' : 'pending';
  await transitionSubmissions(tx, [row], { to, reason: 'submitted', by: row.userId });
  // Round 1 of its versions (CONTRACT §27): what was sent, kept however many versions follow.
  await recordFirstVersion(tx, row, new Date());
  return { ...row, status: to };
}

/**
 * POST /api/submissions. The server sets the amount from the tier and the status (free →
 * pending; paid → payment_pending awaiting payment). Every file it references must be a
 * checked upload of the same user not attached elsewhere; they are attached in the same
 * transaction, so a refused file leaves nothing behind.
 */
export async function createSubmission(
  db: Db,
  outbox: EmailQueue,
  userId: string,
  input: CreateSubmission,
): Promise<ArtistSubmissionRow> {
  return db.transaction(async (tx) => {
    const licence = acceptedTerms(new Date());
    // Written as a draft and sent at once: the same move as a draft's submit.
    const [draft] = await tx
      .insert(submissions)
      .values({ ...input, ...submittedState(input), ...licence, id: newId(), userId, status: 'draft' })
      .returning(artistColumns);
    await attachFiles(tx, userId, draft!.id, fileReferences(input), { isNew: true });
    const row = await sendToLabel(tx, draft!);
    await queueSubmissionReceived(tx, outbox, row);
    return row;
  });
}

/** Stand-ins for the columns a submission must have, until the artist fills them in. */
const DRAFT_DEFAULTS = {
  submissionType: 'track',
  submissionMethod: 'upload',
  releaseStatus: 'unreleased',
  artistName: '',
  songTitle: '',
  hasLyrics: false,
  aiUsage: false,
  videoStyle: 'non-custom',
  pricingTier: 'free',
} as const;

/** POST /api/submissions/drafts: a draft with whatever the artist has entered so far. */
export async function createDraft(db: Db, userId: string, input: DraftChanges): Promise<ArtistSubmissionRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(submissions)
      .values({ ...DRAFT_DEFAULTS, ...withoutUndefined(input), id: newId(), userId, status: 'draft', termsAccepted: input.termsAccepted ?? false })
      .returning(artistColumns);
    await attachFiles(tx, userId, row!.id, fileReferences(input), { isNew: true });
    return row!;
  });
}

/** The caller's draft, locked for the change; 404 when not theirs, 409 once it was submitted. */
async function lockOwnDraft(tx: Tx, userId: string, id: string): Promise<ArtistSubmissionRow> {
  const row = await lockOwnSubmission(tx, userId, id, artistColumns);
  if (row.status !== 'draft') throw apiError('draft_already_submitted');
  return row;
}

async function applyDraftChanges(tx: Tx, userId: string, current: ArtistSubmissionRow, changes: DraftChanges) {
  const values = withoutUndefined(changes);
  const [row] = await tx
    .update(submissions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(submissions.id, current.id))
    .returning(artistColumns);
  await attachFiles(tx, userId, current.id, fileReferences({ ...current, ...values }));
  return row!;
}

/** PATCH /api/submissions/{id}: changes a draft (409 once submitted). */
export async function updateDraft(db: Db, userId: string, id: string, changes: DraftChanges): Promise<ArtistSubmissionRow> {
  return db.transaction(async (tx) => applyDraftChanges(tx, userId, await lockOwnDraft(tx, userId, id), changes));
}

/**
 * POST /api/submissions/{id}/submit: the draft (with the last changes sent along) goes to the
 * label under every rule of POST /api/submissions; `validate` is that rule set. The draft is
 * locked throughout, so two submits at once send it once and the second gets a 409.
 */
export async function submitDraft(
  db: Db,
  outbox: EmailQueue,
  userId: string,
  id: string,
  changes: DraftChanges,
  validate: (draft: ArtistSubmissionRow) => CreateSubmission,
): Promise<ArtistSubmissionRow> {
  return db.transaction(async (tx) => {
    const draft = await applyDraftChanges(tx, userId, await lockOwnDraft(tx, userId, id), changes);
    const input = validate(draft);
    const licence = acceptedTerms(new Date());
    const [sent] = await tx
      .update(submissions)
      .set({ ...input, ...submittedState(input), ...licence, createdAt: new Date(), updatedAt: new Date() })
      .where(eq(submissions.id, id))
      .returning(artistColumns);
    await attachFiles(tx, userId, id, fileReferences(input));
    const row = await sendToLabel(tx, sent!);
    await queueSubmissionReceived(tx, outbox, row);
    return row;
  });
}

/** The artist's "we received it" email, in the transaction that sends the submission to the label. */
async function queueSubmissionReceived(tx: Tx, outbox: EmailQueue, row: ArtistSubmissionRow): Promise<void> {
  await outbox.queue(tx, {
    kind: 'submission_received',
    userId: row.userId,
    data: {
      submissionId: row.id,
      songTitle: row.songTitle,
      artistName: row.artistName,
      tierName: TIERS[row.pricingTier].name,
      awaitingPayment: isPaidTier(row.pricingTier),
    },
  });
}

function prepareFirstPage(db: Db) {
  return db
    .select(artistColumns)
    .from(submissions)
    .where(eq(submissions.userId, sql.placeholder('userId')))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(sql.placeholder('limit'))
    .prepare('submissions_first_page');
}
/** The first page is what every dashboard visit reads: prepared once per database. */
const preparedFirstPages = new WeakMap<Db, ReturnType<typeof prepareFirstPage>>();

/**
 * GET /api/submissions: a page of the caller's own, drafts included, newest first, on
 * submissions_user_created_idx; `before` is the id of the last submission of the page before.
 */
export async function listSubmissions(
  db: Db,
  userId: string,
  page: { before?: string | undefined; limit: number },
): Promise<ArtistSubmissionRow[]> {
  if (!page.before) {
    let statement = preparedFirstPages.get(db);
    if (!statement) preparedFirstPages.set(db, (statement = prepareFirstPage(db)));
    return statement.execute({ userId, limit: page.limit });
  }
  // The cursor is looked up among the caller's own rows: another artist's id is refused.
  const [cursor] = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.id, page.before), eq(submissions.userId, userId)))
    .limit(1);
  if (!cursor) throw apiError('invalid_cursor');
  // Compared in SQL, so the stored microseconds are kept (a JavaScript Date would drop them).
  const after = sql`(${submissions.createdAt}, ${submissions.id}) < (select s.created_at, s.id from ${submissions} s where s.id = ${cursor.id})`;
  return db
    .select(artistColumns)
    .from(submissions)
    .where(and(eq(submissions.userId, userId), after))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(page.limit);
}

/**
 * GET /api/submissions' items: each submission with what its dashboard row shows beside it, read
 * for the whole page at once (two queries at most, whatever its length; issue 50): the places in
 * the team's queue of those that wait, and which agreements wait for the artist's hand.
 */
export async function listItemsOf(db: Db, rows: ArtistSubmissionRow[]): Promise<SubmissionListItem[]> {
  const [places, awaiting] = await Promise.all([queuePlacesOf(db, rows), agreementsAwaitingArtist(db, rows)]);
  return rows.map((row) => ({ ...toSubmission(row), queuePosition: places.get(row.id) ?? null, agreementAwaitsArtist: awaiting.has(row.id) }));
}

/**
 * GET /api/submissions/{id}: for its owner or an admin; anyone else gets "not found". A draft is
 * its owner's alone (CONTRACT §12), so the team does not see it either.
 */
export async function findSubmission(db: Db, user: UserRow, id: string): Promise<ArtistSubmissionRow> {
  const own = eq(submissions.userId, user.id);
  const visible = user.role === 'admin' ? or(own, ne(submissions.status, 'draft')) : own;
  const [row] = await db
    .select(artistColumns)
    .from(submissions)
    .where(and(eq(submissions.id, id), visible))
    .limit(1);
  if (!row) throw apiError('submission_not_found');
  return row;
}

/** The uploads a submission refers to, for the owner's wizard to show again. */
export async function attachedFiles(db: Db, submissionId: string): Promise<AttachedFile[]> {
  const rows = await db
    .select({ id: uploads.id, fileName: uploads.fileName, size: uploads.size, contentType: uploads.contentType })
    .from(uploads)
    .where(eq(uploads.submissionId, submissionId));
  return rows.map((r) => ({ objectPath: objectPathOf(r.id), fileName: r.fileName, size: r.size, contentType: r.contentType }));
}

/** POST /api/submissions/{id}/seen: the artist opened it; its news are no longer new. */
export async function markSubmissionSeen(db: Db, userId: string, id: string): Promise<void> {
  const seen = await db
    .update(submissions)
    .set({ artistSeenAt: sql`now()` })
    .where(and(eq(submissions.id, id), eq(submissions.userId, userId)))
    .returning({ id: submissions.id });
  if (seen.length === 0) throw apiError('submission_not_found');
}

function withoutUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}
