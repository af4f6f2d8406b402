import { and, desc, eq, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { ACCOUNT_TEXTS } from '@shared/auth-texts';
import { TEAM_PAGE_SIZE, type AdminUser, type AdminUsersPage } from '@shared/account';
import type { Role } from '@shared/auth';
import type { Db } from '../../platform/db/client';
import { likePattern } from '../../platform/db/like-pattern';
import { submissions, users } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { assertAnotherAdmin } from './account';

/**
 * How many submissions (drafts left out) each of these accounts has, by id; 0 for none. A second,
 * indexed query over the page's ids: the correlated subquery it replaces was rendered by Drizzle
 * with unqualified columns ("user_id" = "id" inside `from submissions`), so it compared each
 * submission with itself and every account read 0 (issue 23).
 */
async function countSubmissionsOf(db: Pick<Db, 'select'>, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: submissions.userId, n: sql<number>`count(*)::int` })
    .from(submissions)
    .where(and(inArray(submissions.userId, userIds), ne(submissions.status, 'draft')))
    .groupBy(submissions.userId);
  return new Map(rows.map((r) => [r.userId, r.n]));
}

/** GET /api/admin/users: every account (deleted ones excepted), newest first, searched by email or name. */
export async function listUsers(db: Db, { q, page }: { q: string; page: number }): Promise<AdminUsersPage> {
  const pattern = likePattern(q);
  const where = and(
    isNull(users.deletedAt),
    q
      ? or(
          ilike(users.email, pattern),
          ilike(users.artistName, pattern),
          ilike(sql`coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')`, pattern),
        )
      : undefined,
  );
  const [rows, [count], [admins]] = await Promise.all([
    db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        artistName: users.artistName,
        role: users.role,
        authProvider: users.authProvider,
        emailVerified: users.emailVerified,
        createdAt: users.createdAt,
      })
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(TEAM_PAGE_SIZE)
      .offset((page - 1) * TEAM_PAGE_SIZE),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.role, 'admin'), isNull(users.deletedAt))),
  ]);
  const counts = await countSubmissionsOf(db, rows.map((r) => r.id));
  return {
    users: rows.map((r): AdminUser => ({ ...r, createdAt: r.createdAt.toISOString(), submissionCount: counts.get(r.id) ?? 0 })),
    total: count?.n ?? 0,
    adminCount: admins?.n ?? 0,
    page,
    pageSize: TEAM_PAGE_SIZE,
  };
}

/** PATCH /api/admin/users/{id}: promotes or demotes; the last admin cannot be demoted (409). */
export async function changeUserRole(db: Db, userId: string, role: Role): Promise<AdminUser> {
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ role: users.role })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .limit(1);
    if (!target) throw apiError('user_not_found');
    if (target.role === 'admin' && role !== 'admin') await assertAnotherAdmin(tx, userId, ACCOUNT_TEXTS.lastAdmin);
    const [row] = await tx
      .update(users)
      .set({ role, updatedAt: sql`now()` })
      .where(eq(users.id, userId))
      .returning();
    return toAdminUser(row!, await countSubmissionsOf(tx, [userId]));
  });
}

function toAdminUser(row: typeof users.$inferSelect, counts: Map<string, number>): AdminUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    artistName: row.artistName,
    role: row.role,
    authProvider: row.authProvider,
    emailVerified: row.emailVerified,
    createdAt: row.createdAt.toISOString(),
    submissionCount: counts.get(row.id) ?? 0,
  };
}

/**
 * POST /api/admin/users/{id}/verify-email: without a mail server no link can reach anyone, so an
 * admin may confirm an address they know to be the person's (docs/decisions/155-honest-texts-without-mail.md).
 * It confirms the current address only; a change waiting for its link stays waiting.
 */
export async function confirmUserEmail(db: Db, userId: string): Promise<AdminUser> {
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ email: users.email, emailVerified: users.emailVerified })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .limit(1)
      .for('update');
    if (!target || !target.email) throw apiError('user_not_found');
    if (target.emailVerified) throw apiError('email_already_confirmed');
    const [row] = await tx.update(users).set({ emailVerified: true, updatedAt: sql`now()` }).where(eq(users.id, userId)).returning();
    return toAdminUser(row!, await countSubmissionsOf(tx, [userId]));
  });
}
