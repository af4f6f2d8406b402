// What several areas' tables share: the CHECK of a shared list's values, and the two timestamps. One area of the schema (index.ts, decision 200).
import { sql, type SQL } from 'drizzle-orm';
import { check, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A CHECK that a column holds one of a shared list's values (src/shared), so the database refuses
 * what the types refuse. The list is written into the constraint as literals: when a value is added
 * to the shared array, `drizzle-kit generate` replaces the constraint. (A CHECK rather than a
 * PostgreSQL enum: adding or removing a value is then an ordinary migration, inside a transaction.)
 */
export function oneOf(name: string, column: AnyPgColumn, values: readonly string[]): ReturnType<typeof check> {
  const literals: SQL = sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '));
  return check(name, sql`${column} in (${literals})`);
}

export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
