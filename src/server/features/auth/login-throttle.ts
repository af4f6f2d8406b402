import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { loginFailures } from '../../platform/db/schema';
import { HttpError } from '../../platform/errors';

/**
 * Failed sign-ins are counted in the database, per email and per client address, so the limit
 * holds across every server instance (docs/decisions/003-login-throttling.md).
 */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60 * 1000,
  maxFailuresPerEmail: 5,
  maxFailuresPerIp: 30,
} as const;

const keysFor = (email: string, ip: string) => [
  { key: `email:${email.toLowerCase()}`, max: LOGIN_THROTTLE.maxFailuresPerEmail },
  { key: `ip:${ip}`, max: LOGIN_THROTTLE.maxFailuresPerIp },
];

export async function assertLoginAllowed(db: Db, email: string, ip: string): Promise<void> {
  const now = Date.now();
  for (const { key, max } of keysFor(email, ip)) {
    const [row] = await db.select().from(loginFailures).where(eq(loginFailures.key, key));
    if (!row) continue;
    const retryAt = row.windowStart.getTime() + LOGIN_THROTTLE.windowMs;
    if (row.failures >= max && retryAt > now) {
      const minutes = Math.max(1, Math.ceil((retryAt - now) / 60_000));
      throw new HttpError(
        429,
        `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
  }
}

export async function recordLoginFailure(db: Db, email: string, ip: string): Promise<void> {
  const windowStartSql = sql`now() - make_interval(secs => ${LOGIN_THROTTLE.windowMs / 1000})`;
  for (const { key } of keysFor(email, ip)) {
    await db
      .insert(loginFailures)
      .values({ key, failures: 1, windowStart: sql`now()` })
      .onConflictDoUpdate({
        target: loginFailures.key,
        // A window that has run out starts again from this failure.
        set: {
          failures: sql`case when ${loginFailures.windowStart} < ${windowStartSql} then 1 else ${loginFailures.failures} + 1 end`,
          windowStart: sql`case when ${loginFailures.windowStart} < ${windowStartSql} then now() else ${loginFailures.windowStart} end`,
        },
      });
  }
}

export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, `email:${email.toLowerCase()}`));
}

export async function pruneLoginFailures(db: Db): Promise<void> {
  await db
    .delete(loginFailures)
    .where(lt(loginFailures.windowStart, sql`now() - make_interval(secs => ${LOGIN_THROTTLE.windowMs / 1000})`));
}
