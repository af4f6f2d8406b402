import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { describe, expect, inject, it } from 'vitest';
import { integer, pgTable } from 'drizzle-orm/pg-core';
import { nameFor, PreparingClient } from './prepared-statements';

describe('the name a query is prepared under', () => {
  it('is the same for the same text, differs between texts, and fits PostgreSQL’s 63 characters; a very long text gets none', () => {
    const text = 'select "id" from "users" where "users"."id" = $1';
    expect(nameFor(text)).toBe(nameFor(`${text}`));
    expect(nameFor(text)).not.toBe(nameFor(`${text} limit $2`));
    expect(nameFor(text)!.length).toBeLessThanOrEqual(63);
    expect(nameFor(`select $1 -- ${'x'.repeat(10_000)}`)).toBeUndefined();
  });
});

// The PostgreSQL run of npm test (DATABASE_URL, which CI runs too) has a server to prepare on.
const target = inject('testDatabase');
(target.kind === 'postgres' ? describe : () => undefined)('a connection that prepares its queries (decision 183)', () => {
  it('prepares a query with parameters once per text, and leaves one without parameters alone', async () => {
    const client = new PreparingClient({ connectionString: target.kind === 'postgres' ? target.url : '' });
    await client.connect();
    try {
      const prepared = async () =>
        (await client.query<{ name: string; statement: string }>('select name, statement from pg_prepared_statements order by statement')).rows;
      expect(await prepared()).toEqual([]);

      for (const n of [1, 2, 3]) {
        const { rows } = await client.query<{ doubled: number }>('select $1::int * 2 as doubled', [n]);
        expect(rows).toEqual([{ doubled: n * 2 }]);
      }
      const asConfig = await client.query({ text: 'select $1::text as echoed', values: ['hi'], rowMode: 'array' });
      expect(asConfig.rows).toEqual([['hi']]);
      await client.query('select 1');

      const statements = await prepared();
      expect(statements.map((s) => s.statement)).toEqual(['select $1::int * 2 as doubled', 'select $1::text as echoed']);
      expect(statements.every((s) => /^hub_[\w-]+$/.test(s.name))).toBe(true);

      // A query that fails still answers with PostgreSQL's error, and the next run of its text works.
      await expect(client.query('select 1 / $1::int as quotient', [0])).rejects.toMatchObject({ code: '22012' });
      expect((await client.query('select 1 / $1::int as quotient', [1])).rows).toEqual([{ quotient: 1 }]);
    } finally {
      await client.end();
    }
  });

  it('prepares Drizzle’s queries too, which pass their parameters beside the query', async () => {
    const client = new PreparingClient({ connectionString: target.kind === 'postgres' ? target.url : '' });
    await client.connect();
    try {
      await client.query('create temporary table tracks (id integer)');
      const tracks = pgTable('tracks', { id: integer('id') });
      const db = drizzle(client);
      const select = () => db.select({ id: tracks.id }).from(tracks).where(eq(tracks.id, 7));
      const raw = () => db.execute(sql`select ${'hi'}::text as echoed`);
      for (let i = 0; i < 2; i++) {
        expect(await select()).toEqual([]);
        expect((await raw()).rows).toEqual([{ echoed: 'hi' }]);
      }
      const { rows } = await client.query<{ statement: string }>('select statement from pg_prepared_statements order by statement');
      expect(rows.map((r) => r.statement)).toEqual([select().toSQL().sql, 'select $1::text as echoed'].sort());
    } finally {
      await client.end();
    }
  });
});
