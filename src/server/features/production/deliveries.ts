import type { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Delivery, DeliverableFile } from '@shared/production';
import { isDeliverableType } from '@shared/production';
import type { Db } from '../../platform/db/client';
import { deliveries, deliveryFiles, submissions, uploads, users } from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { apiError, rangeNotSatisfiable } from '../../platform/errors';
import { newId } from '../../platform/ids';
import {
  objectKey,
  ObjectNotFoundError,
  RangeNotSatisfiableError,
  type ObjectStorage,
  type Served,
} from '../../platform/storage/object-storage';
import { streamingZip } from '../../platform/streaming-zip';
import { toZipEntryName } from '../../platform/zip-entry-name';
import { uploadIdFromObjectPath } from '@shared/submissions';
import { lockDeskSubmission } from './access';
import { recordHistory } from '../../domain/submission/history';

const fileUrl = (submissionId: string, uploadId: string) => `/api/submissions/${submissionId}/deliverables/${uploadId}`;

/**
 * POST /api/admin/submissions/{id}/deliverables (CONTRACT §13): the files become one delivery
 * with its note, attached to the submission (so they live and go with it); the first delivery
 * sets `deliveredAt`, which stops the deadline. Each file must be an upload an admin made and
 * checked as a deliverable, not yet delivered. The artist is emailed in the same transaction.
 */
export async function deliverFiles(
  db: Db,
  outbox: EmailQueue,
  adminId: string,
  submissionId: string,
  input: { objectPaths: string[]; note: string | null },
  now: Date,
): Promise<Delivery> {
  const ids = input.objectPaths.map((path) => uploadIdFromObjectPath(path) ?? '');
  if (new Set(ids).size !== ids.length) throw apiError('deliverable_not_usable', 'The same file is listed twice');
  const deliveryId = newId();
  await db.transaction(async (tx) => {
    const submission = await lockDeskSubmission(tx, submissionId);
    const rows = await tx
      .select({ upload: uploads, uploaderRole: users.role, deliveredIn: deliveryFiles.deliveryId })
      .from(uploads)
      .innerJoin(users, eq(users.id, uploads.userId))
      .leftJoin(deliveryFiles, eq(deliveryFiles.uploadId, uploads.id))
      .where(inArray(uploads.id, ids));
    const byId = new Map(rows.map((r) => [r.upload.id, r]));
    ids.forEach((id, index) => {
      const row = byId.get(id);
      const refuse = (message: string) => {
        throw apiError('deliverable_not_usable', message, [{ path: `objectPaths.${index}`, message }]);
      };
      if (!row || row.uploaderRole !== 'admin') refuse('Not a file the team uploaded');
      if (!isDeliverableType(row!.upload.contentType)) refuse('This file has not been checked as a deliverable');
      if (row!.deliveredIn !== null) refuse('This file has already been delivered');
      if (row!.upload.submissionId !== null && row!.upload.submissionId !== submissionId) refuse('This file belongs to another submission');
    });
    // Numbered in delivery order (CONTRACT §17); the submission's row lock serializes deliveries.
    const [last] = await tx
      .select({ version: sql<number>`coalesce(max(${deliveries.version}), 0)::int` })
      .from(deliveries)
      .where(eq(deliveries.submissionId, submissionId));
    await tx
      .insert(deliveries)
      .values({ id: deliveryId, submissionId, version: (last?.version ?? 0) + 1, note: input.note, createdBy: adminId, createdAt: now });
    await tx.insert(deliveryFiles).values(ids.map((uploadId, position) => ({ uploadId, deliveryId, position })));
    await tx.update(uploads).set({ submissionId }).where(inArray(uploads.id, ids));
    await tx
      .update(submissions)
      // A new cut replaces the one the artist approved: they approve again (CONTRACT §17).
      .set({ deliveredAt: submission.deliveredAt ?? now, approvedDeliveryId: null, cutApprovedAt: null, updatedAt: now })
      .where(eq(submissions.id, submissionId));
    await recordHistory(tx, submissionId, {
      kind: 'delivery',
      by: adminId,
      to: `${ids.length} file${ids.length === 1 ? '' : 's'}${input.note ? `: ${input.note}` : ''}`,
      at: now,
    });
    await outbox.queue(tx, {
      kind: 'deliverables_ready',
      userId: submission.userId,
      data: { submissionId, songTitle: submission.songTitle, fileCount: ids.length, note: input.note },
    });
  });
  const [delivery] = (await listDeliveries(db, submissionId)).filter((d) => d.id === deliveryId);
  return delivery!;
}

/** GET /api/submissions/{id}/deliverables: every delivery, oldest first, with its files in order. */
export async function listDeliveries(db: Db, submissionId: string): Promise<Delivery[]> {
  const rows = await db
    .select({ delivery: deliveries, file: deliveryFiles, upload: uploads })
    .from(deliveries)
    .leftJoin(deliveryFiles, eq(deliveryFiles.deliveryId, deliveries.id))
    .leftJoin(uploads, eq(uploads.id, deliveryFiles.uploadId))
    .where(eq(deliveries.submissionId, submissionId))
    .orderBy(asc(deliveries.version), asc(deliveryFiles.position));
  const out = new Map<string, Delivery>();
  for (const { delivery, upload } of rows) {
    let entry = out.get(delivery.id);
    if (!entry) {
      entry = { id: delivery.id, version: delivery.version, note: delivery.note, createdAt: delivery.createdAt.toISOString(), files: [] };
      out.set(delivery.id, entry);
    }
    if (upload) entry.files.push(toDeliverableFile(submissionId, upload));
  }
  return [...out.values()];
}

function toDeliverableFile(submissionId: string, upload: typeof uploads.$inferSelect): DeliverableFile {
  return {
    id: upload.id,
    fileName: upload.fileName ?? `file-${upload.id.slice(0, 8)}${extensionOf(upload.contentType)}`,
    contentType: upload.contentType ?? 'application/octet-stream',
    size: upload.size ?? 0,
    url: fileUrl(submissionId, upload.id),
  };
}

function extensionOf(contentType: string | null): string {
  const ext: Record<string, string> = {
    'image/jpeg': '.jpg',
    'image/png': '.png',
    'image/webp': '.webp',
    'application/zip': '.zip',
    'audio/mpeg': '.mp3',
    'audio/wav': '.wav',
    'audio/ogg': '.ogg',
    'audio/mp4': '.m4a',
    'video/mp4': '.mp4',
    'video/quicktime': '.mov',
    'video/webm': '.webm',
  };
  return ext[contentType ?? ''] ?? '';
}

/** One delivered file of this submission, or "not found". */
async function findDeliveredFile(db: Db, submissionId: string, uploadId: string): Promise<DeliverableFile> {
  const [row] = await db
    .select({ upload: uploads })
    .from(deliveryFiles)
    .innerJoin(deliveries, eq(deliveries.id, deliveryFiles.deliveryId))
    .innerJoin(uploads, eq(uploads.id, deliveryFiles.uploadId))
    .where(and(eq(deliveryFiles.uploadId, uploadId), eq(deliveries.submissionId, submissionId)))
    .limit(1);
  if (!row) throw apiError('deliverable_not_found');
  return toDeliverableFile(submissionId, row.upload);
}

/**
 * GET /api/submissions/{id}/deliverables/{fileId}: the bytes with Range and ETag (to play or
 * preview), or a redirect to the store.
 */
export async function serveDeliverable(
  db: Db,
  storage: ObjectStorage,
  submissionId: string,
  uploadId: string,
  request: IncomingMessage,
): Promise<{ file: DeliverableFile; served: Served }> {
  const file = await findDeliveredFile(db, submissionId, uploadId);
  try {
    const served = await storage.serve(objectKey('uploads', uploadId), request, {
      contentType: file.contentType,
      expiresInSeconds: 5 * 60,
    });
    return { file, served };
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw apiError('deliverable_not_found');
    if (error instanceof RangeNotSatisfiableError) throw rangeNotSatisfiable(error.size);
    throw error;
  }
}

/** Safe names, unique within the archive: "cover.png", "cover (2).png". */
function uniqueNames(files: DeliverableFile[]): string[] {
  const seen = new Map<string, number>();
  return files.map((f) => {
    const safe = toZipEntryName(f.fileName);
    const n = (seen.get(safe.toLowerCase()) ?? 0) + 1;
    seen.set(safe.toLowerCase(), n);
    if (n === 1) return safe;
    const dot = safe.lastIndexOf('.');
    return dot > 0 ? `${safe.slice(0, dot)} (${n})${safe.slice(dot)}` : `${safe} (${n})`;
  });
}

/** Already-compressed formats are stored as they are: deflating a video costs CPU and saves nothing. */
const COMPRESSED = /^(image|audio|video)\/|^application\/zip$/;

/**
 * GET /api/submissions/{id}/deliverables.zip: every delivered file in one ZIP (archiver),
 * streamed file by file from the store: memory stays constant whatever the sizes (ZIP64 past
 * 4 GiB). A file missing from the store ends the archive with an error rather than a ZIP
 * that silently lacks it.
 */
export async function zipDeliverables(
  db: Db,
  storage: ObjectStorage,
  submissionId: string,
  onError: (error: Error) => void,
): Promise<{ stream: Readable; count: number }> {
  const files = (await listDeliveries(db, submissionId)).flatMap((d) => d.files);
  if (files.length === 0) throw apiError('deliverable_not_found', 'Nothing has been delivered yet');
  const names = uniqueNames(files);
  const zip = streamingZip(onError);
  zip.run(async () => {
    for (const [index, file] of files.entries()) {
      await zip.append(await storage.read(objectKey('uploads', file.id)), names[index]!, COMPRESSED.test(file.contentType));
    }
  });
  return { stream: zip.stream, count: files.length };
}
