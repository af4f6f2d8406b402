import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { PAYMENT_DUE_STATUSES, type SubmissionStatus } from '@shared/submissions';
import type { AdminDigestData } from '../../domain/email/templates/admin-digest';
import type { Db } from '../../platform/db/client';
import { submissionHistory, submissions, users } from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';

type Section = AdminDigestData['sections'][number];

/** The digest covers the day before it is sent. */
const DIGEST_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Submissions listed per section; the rest are counted. */
const ITEMS_PER_SECTION = 20;
/** Statuses not yet waiting for the team: the artist still has to pay. */
const NOT_YET_IN_QUEUE: SubmissionStatus[] = ['draft', ...PAYMENT_DUE_STATUSES];

/**
 * One section of the digest: a title and what it lists (new submissions, overdue ones); a section
 * with nothing in it is left out, and a day with nothing at all sends no digest.
 */
interface DigestSection {
  title: string;
  collect(db: Db, since: Date, now: Date): Promise<Pick<Section, 'total' | 'items'>>;
}

/**
 * What entered the team's queue in the window: sent in it (a draft is re-dated when it is sent),
 * or moved out of "waiting for payment" in it. A paid submission paid days after it was sent is
 * new on the day it was paid; one still unpaid is not the team's yet.
 */
const newSubmissionsSection: DigestSection = {
  title: 'New submissions',
  async collect(db, since) {
    const enteredQueue = db
      .select({ id: submissionHistory.submissionId })
      .from(submissionHistory)
      .where(
        and(
          eq(submissionHistory.field, 'status'),
          inArray(submissionHistory.fromValue, NOT_YET_IN_QUEUE),
          gte(submissionHistory.createdAt, since),
        ),
      );
    const where = and(
      notInArray(submissions.status, NOT_YET_IN_QUEUE),
      or(gte(submissions.createdAt, since), inArray(submissions.id, enteredQueue)),
    );
    const rows = await db
      .select({ id: submissions.id, songTitle: submissions.songTitle, artistName: submissions.artistName, tier: submissions.pricingTier })
      .from(submissions)
      .where(where)
      .orderBy(desc(submissions.createdAt))
      .limit(ITEMS_PER_SECTION);
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(submissions).where(where);
    return {
      total: count?.n ?? 0,
      items: rows.map((r) => ({ submissionId: r.id, songTitle: r.songTitle, artistName: r.artistName, detail: `${r.tier} plan` })),
    };
  },
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Paid work not delivered by its deadline (CONTRACT §13), most overdue first; refunded ones are settled. */
const overdueSection: DigestSection = {
  title: 'Overdue',
  async collect(db, _since, now) {
    const where = and(
      isNotNull(submissions.dueAt),
      lt(submissions.dueAt, now),
      isNull(submissions.deliveredAt),
      isNull(submissions.refundRequestedAt),
    );
    const rows = await db
      .select({ id: submissions.id, songTitle: submissions.songTitle, artistName: submissions.artistName, dueAt: submissions.dueAt })
      .from(submissions)
      .where(where)
      .orderBy(asc(submissions.dueAt))
      .limit(ITEMS_PER_SECTION);
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(submissions).where(where);
    return {
      total: count?.n ?? 0,
      items: rows.map((r) => {
        const days = Math.max(1, Math.floor((now.getTime() - r.dueAt!.getTime()) / DAY_MS));
        return { submissionId: r.id, songTitle: r.songTitle, artistName: r.artistName, detail: `due ${r.dueAt!.toISOString().slice(0, 10)}, ${days} day${days === 1 ? '' : 's'} late` };
      }),
    };
  },
};

const DIGEST_SECTIONS: DigestSection[] = [newSubmissionsSection, overdueSection];

/**
 * The daily job: one digest per admin, covering the last 24 hours; nothing to report, no email.
 * Admins who turned the digest off are skipped by the outbox when it sends.
 */
export async function queueAdminDigests(db: Db, outbox: EmailQueue, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - DIGEST_WINDOW_MS);
  const sections: Section[] = [];
  for (const section of DIGEST_SECTIONS) {
    const { total, items } = await section.collect(db, since, now);
    if (total > 0) sections.push({ title: section.title, total, items });
  }
  if (sections.length === 0) return 0;
  const admins = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
  const date = now.toISOString().slice(0, 10);
  await db.transaction(async (tx) => {
    for (const admin of admins) {
      await outbox.queue(tx, {
        kind: 'admin_digest',
        userId: admin.id,
        dedupeKey: `admin_digest:${admin.id}:${date}`,
        data: { date, sections },
      });
    }
  });
  return admins.length;
}
