import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { SUBMISSION_MESSAGES } from '@shared/submission-schemas';
import { MAX_ROUND, uploadIdFromObjectPath, type SubmissionType } from '@shared/submissions';
import { VERSION_TEXTS, type SubmissionVersion } from '@shared/versions';
import type { Db, Tx } from '../../platform/db/client';
import { submissionVersions, submissions, uploads, type SubmissionVersionRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { recordArtistActivity } from './artist-activity';
import { startDecisionClock } from './decision-date';
import { recordHistory } from './history';
import { lockOwnSubmission } from './lock-own-submission';
import { transitionSubmissions } from './transition';

/**
 * Revise and resubmit (CONTRACT §27, decision 197): THE writer of a submission's versions. The
 * submission row always holds the current version's fields, so everything that reads a
 * submission's music (the desk's player, downloads, the CSV, the release package, the backup, the
 * account export) reads the current one unchanged; each version, round 1 included, is a row of
 * `submission_versions`, and each version's upload stays attached to the submission: nothing of
 * an earlier version is ever overwritten or removed while the submission lasts.
 */

/** The music (or video) fields of a submission, as the row holds them. */
interface SourceFields {
  id: string;
  userId: string;
  submissionType: SubmissionType;
  musicUrl: string | null;
  musicFileUrl: string | null;
  videoUrl: string | null;
  videoFileUrl: string | null;
}

/** Where a submission's current music (or video) is: an uploaded file's path, or a link. */
function currentSource(row: SourceFields): { objectPath: string | null; url: string | null } {
  return row.submissionType === 'video' ? { objectPath: row.videoFileUrl, url: row.videoUrl } : { objectPath: row.musicFileUrl, url: row.musicUrl };
}

/**
 * Round 1: what the artist sent when the submission went to the label, recorded in the same
 * transaction (and, for one sent before versions existed, by migration 0035 or at its first new
 * version). Recording it twice changes nothing.
 */
export async function recordFirstVersion(tx: Tx, row: SourceFields, at: Date): Promise<void> {
  const { objectPath, url } = currentSource(row);
  const uploadId = objectPath ? uploadIdFromObjectPath(objectPath) : null;
  const [upload] = uploadId ? await tx.select({ fileName: uploads.fileName }).from(uploads).where(eq(uploads.id, uploadId)).limit(1) : [];
  await tx
    .insert(submissionVersions)
    .values({ id: newId(), submissionId: row.id, round: 1, objectPath, url, uploadId: upload ? uploadId : null, fileName: upload?.fileName ?? null, createdBy: row.userId, createdAt: at })
    .onConflictDoNothing({ target: [submissionVersions.submissionId, submissionVersions.round] });
}

/** Whether an upload's checked type fits the submission: a video for a video, audio (or a video) for a track. */
const fitsType = (type: SubmissionType, contentType: string | null) =>
  type === 'video' ? !!contentType?.startsWith('video/') : /^(audio|video)\//.test(contentType ?? '');

/**
 * POST /api/submissions/{id}/versions by the submission's owner (anyone else: 404): while changes
 * are requested (else 409) and while a new version is left (at most MAX_NEW_VERSIONS, else 409).
 * The new file must be a checked upload of the owner's not attached to anything yet (else 400); it
 * is attached to the submission like the first. In one transaction: the version's row, the row's
 * music (or video) fields and `round`, the status back to pending through the one transition, the
 * history, the decision clock (CONTRACT §26) started again and the team's activity badge. The
 * payment is not touched: it carries over, and nothing is charged.
 */
export async function addSubmissionVersion(
  db: Db,
  userId: string,
  submissionId: string,
  input: { objectPath?: string | null | undefined; url?: string | null | undefined; note: string | null },
  now = new Date(),
): Promise<SubmissionVersion> {
  return db.transaction(async (tx) => {
    const row = await lockOwnSubmission(tx, userId, submissionId, {
      id: submissions.id,
      userId: submissions.userId,
      status: submissions.status,
      round: submissions.round,
      songTitle: submissions.songTitle,
      submissionType: submissions.submissionType,
      musicUrl: submissions.musicUrl,
      musicFileUrl: submissions.musicFileUrl,
      videoUrl: submissions.videoUrl,
      videoFileUrl: submissions.videoFileUrl,
      createdAt: submissions.createdAt,
    });
    if (row.status !== 'changes_requested') throw apiError('changes_not_requested', VERSION_TEXTS.notRequested);
    if (row.round >= MAX_ROUND) throw apiError('versions_exhausted', VERSION_TEXTS.limitReached);
    await recordFirstVersion(tx, row, row.createdAt);

    const objectPath = input.objectPath ?? null;
    const url = objectPath ? null : (input.url ?? null);
    let fileName: string | null = null;
    const uploadId = objectPath ? uploadIdFromObjectPath(objectPath) : null;
    if (objectPath) {
      const [claimed] = uploadId
        ? await tx
            .update(uploads)
            .set({ submissionId })
            .where(and(eq(uploads.id, uploadId), eq(uploads.userId, userId), isNull(uploads.submissionId), isNotNull(uploads.contentType)))
            .returning({ contentType: uploads.contentType, fileName: uploads.fileName })
        : [];
      if (!claimed || !fitsType(row.submissionType, claimed.contentType)) {
        throw apiError('file_not_yours', SUBMISSION_MESSAGES.objectPath, [{ path: 'objectPath', message: SUBMISSION_MESSAGES.objectPath }]);
      }
      fileName = claimed.fileName;
    }

    const round = row.round + 1;
    const [version] = await tx
      .insert(submissionVersions)
      .values({ id: newId(), submissionId, round, note: input.note, fileName, url, objectPath, uploadId, createdBy: userId, createdAt: now })
      .returning();
    const fields =
      row.submissionType === 'video' ? { videoFileUrl: objectPath, videoUrl: url } : { musicFileUrl: objectPath, musicUrl: url };
    await tx
      .update(submissions)
      .set({ ...fields, submissionMethod: objectPath ? 'upload' : 'link', round, updatedAt: now })
      .where(eq(submissions.id, submissionId));
    await transitionSubmissions(tx, [row], { to: 'pending', reason: 'resubmitted', by: userId, now });
    await recordHistory(tx, submissionId, { kind: 'version', by: userId, from: String(row.round), to: String(round), at: now });
    await startDecisionClock(tx, submissionId, now);
    await recordArtistActivity(tx, { submissionId, songTitle: row.songTitle, kind: 'new_version', at: now });
    return toVersion(version!, round);
  });
}

function toVersion(row: SubmissionVersionRow, currentRound: number): SubmissionVersion {
  return {
    round: row.round,
    createdAt: row.createdAt.toISOString(),
    note: row.note,
    fileName: row.fileName,
    url: row.url,
    objectPath: row.objectPath,
    current: row.round === currentRound,
  };
}

/**
 * GET /api/submissions/{id}/versions: every version, oldest first, for the submission's owner and
 * the team (anyone else, and a draft to the team: 404). A draft has none yet.
 */
export async function listSubmissionVersions(db: Db, viewer: { id: string; role: string }, submissionId: string): Promise<SubmissionVersion[]> {
  const [row] = await db
    .select({ userId: submissions.userId, status: submissions.status, round: submissions.round })
    .from(submissions)
    .where(eq(submissions.id, submissionId))
    .limit(1);
  const mine = row?.userId === viewer.id;
  if (!row || !(mine || (viewer.role === 'admin' && row.status !== 'draft'))) throw apiError('submission_not_found');
  const rows = await db.select().from(submissionVersions).where(eq(submissionVersions.submissionId, submissionId)).orderBy(asc(submissionVersions.round));
  return rows.map((r) => toVersion(r, row.round));
}
