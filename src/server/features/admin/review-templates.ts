import { asc, eq } from 'drizzle-orm';
import type { ReviewTemplate } from '@shared/review-desk';
import type { Db } from '../../platform/db/client';
import { reviewTemplates } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';

/** Review texts the team shares (CONTRACT §14); names are unique regardless of case. */

type TemplateRow = typeof reviewTemplates.$inferSelect;
const toTemplate = (row: TemplateRow): ReviewTemplate => ({
  id: row.id,
  name: row.name,
  body: row.body,
  updatedAt: row.updatedAt.toISOString(),
});

/** PostgreSQL's unique_violation: the name is taken (two admins saving the same name at once included). */
const isUniqueViolation = (error: unknown) =>
  [error, (error as { cause?: unknown })?.cause].some((e) => (e as { code?: string } | undefined)?.code === '23505');

async function refusingDuplicateNames<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw apiError('template_name_taken');
    throw error;
  }
}

export async function listReviewTemplates(db: Db): Promise<ReviewTemplate[]> {
  const rows = await db.select().from(reviewTemplates).orderBy(asc(reviewTemplates.name), asc(reviewTemplates.id));
  return rows.map(toTemplate);
}

export async function createReviewTemplate(db: Db, adminId: string, input: { name: string; body: string }): Promise<ReviewTemplate> {
  const [row] = await refusingDuplicateNames(() =>
    db.insert(reviewTemplates).values({ id: newId(), name: input.name, body: input.body, createdBy: adminId }).returning(),
  );
  return toTemplate(row!);
}

export async function updateReviewTemplate(db: Db, id: string, input: { name: string; body: string }): Promise<ReviewTemplate> {
  const [row] = await refusingDuplicateNames(() =>
    db
      .update(reviewTemplates)
      .set({ name: input.name, body: input.body, updatedAt: new Date() })
      .where(eq(reviewTemplates.id, id))
      .returning(),
  );
  if (!row) throw apiError('template_not_found');
  return toTemplate(row);
}

export async function deleteReviewTemplate(db: Db, id: string): Promise<void> {
  const [row] = await db.delete(reviewTemplates).where(eq(reviewTemplates.id, id)).returning({ id: reviewTemplates.id });
  if (!row) throw apiError('template_not_found');
}
