import type { HistoryField, StatusChangeReason } from '@shared/admin';
import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client';
import { submissionHistory, users } from '../../platform/db/schema';
import { newId } from '../../platform/ids';

/** One recorded change of a submission: what changed, by whom, from what to what, and why. */
export interface HistoryEntry {
  /** The field that changed (HISTORY_FIELDS). */
  kind: HistoryField;
  /** Who changed it: a person's id, or null for the system (a Stripe webhook, a job). */
  by: string | null;
  from?: string | null;
  to?: string | null;
  /** Why a status moved (ALLOWED_STATUS_MOVES); null on other fields. */
  why?: StatusChangeReason | null;
  /** When; the caller's `now`, so the row and the change it records carry the same instant. */
  at: Date;
}

/**
 * THE writer of a submission's history (ARCHITECTURE "one writer per fact", like pretalx's
 * `log_action`): every feature records a change through this verb, in the transaction that makes
 * the change, so a row exists exactly when its change was committed. A test scans the tree so that
 * no other module inserts into `submission_history`.
 */
export async function recordHistory(tx: Tx | Db, submissionId: string, entry: HistoryEntry): Promise<void> {
  await recordHistoryRows(tx, [{ submissionId, ...entry }]);
}

/** The same for many submissions or fields at once, in one INSERT (a bulk change, a payment's moves). */
export async function recordHistoryRows(tx: Tx | Db, entries: readonly (HistoryEntry & { submissionId: string })[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.insert(submissionHistory).values(
    entries.map((e) => ({
      id: newId(),
      submissionId: e.submissionId,
      actorId: e.by,
      field: e.kind,
      fromValue: e.from ?? null,
      toValue: e.to ?? null,
      reason: e.why ?? null,
      createdAt: e.at,
    })),
  );
}

/** A submission's history as recorded, oldest first, each row with the person who made it (null for the system). */
export function readHistory(db: Tx | Db, submissionId: string) {
  return db
    .select({
      entry: submissionHistory,
      actor: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, artistName: users.artistName, role: users.role },
    })
    .from(submissionHistory)
    .leftJoin(users, eq(users.id, submissionHistory.actorId))
    .where(eq(submissionHistory.submissionId, submissionId))
    .orderBy(asc(submissionHistory.createdAt), asc(submissionHistory.id));
}
