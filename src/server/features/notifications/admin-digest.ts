import { and, desc, eq, gte, notInArray, sql } from 'drizzle-orm';
import { PAYMENT_DUE_STATUSES, type SubmissionStatus } from '@shared/submissions';
import type { AdminDigestData } from '../../platform/email/templates/admin-digest';
import type { Db } from '../../platform/db/client';
import { submissions, users } from '../../platform/db/schema';
import type { EmailQueue } from '../../platform/email/outbox';

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
export interface DigestSection {
  title: string;
  collect(db: Db, since: Date): Promise<Pick<Section, 'total' | 'items'>>;
}

export const newSubmissionsSection: DigestSection = {
  title: 'New submissions',
  async collect(db, since) {
    const where = and(gte(submissions.createdAt, since), notInArray(submissions.status, NOT_YET_IN_QUEUE));
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

/**
 * PLACEHOLDER until submissions have a due date: answers no overdue submissions at all.
 * The `dueAt` column is being added by the deadlines work in parallel and does not exist on
 * main yet; once it does, this becomes the query "in the team's queue (not draft, not awaiting
 * payment, not finished) and dueAt < now", newest due first, at most ITEMS_PER_SECTION items
 * plus the total. Until then the digest's "Overdue" section is always empty, so it is left out.
 */
export async function overdueSubmissionsAwaitingDueAtColumn(_db: Db, _now: Date): Promise<Pick<Section, 'total' | 'items'>> {
  return { total: 0, items: [] };
}

export const overdueSubmissionsSection: DigestSection = {
  title: 'Overdue',
  collect: (db, since) => overdueSubmissionsAwaitingDueAtColumn(db, new Date(since.getTime() + DIGEST_WINDOW_MS)),
};

export const DIGEST_SECTIONS: DigestSection[] = [newSubmissionsSection, overdueSubmissionsSection];

/**
 * The daily job: one digest per admin, covering the last 24 hours; nothing to report, no email.
 * Admins who turned the digest off are skipped by the outbox when it sends.
 */
export async function queueAdminDigests(db: Db, outbox: EmailQueue, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - DIGEST_WINDOW_MS);
  const sections: Section[] = [];
  for (const section of DIGEST_SECTIONS) {
    const { total, items } = await section.collect(db, since);
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
