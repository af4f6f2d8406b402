import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/kit';
import { PgliteInThread } from './pglite-in-thread';

/** How long a query outside a transaction is given to (wrongly) run while the transaction holds the database. */
const INTERLEAVE_WINDOW_MS = 50;

/**
 * The embedded database in its own thread (decision 182) answers as PGlite does: what Drizzle,
 * pg-boss, the realtime bus and the backup rely on is checked here against the real engine.
 */
let db: PgliteInThread;

beforeAll(async () => {
  db = await PgliteInThread.open('memory://');
  await db.exec('create table notes (id int primary key, body text not null, at timestamptz not null default now())');
});
afterAll(() => db?.close());

describe('the embedded database in its own thread', () => {
  it('answers queries with parameters, as objects or arrays, and keeps the text of types asked for', async () => {
    await db.query('insert into notes (id, body) values ($1, $2)', [1, 'first']);
    const objects = await db.query<{ id: number; body: string; at: Date }>('select id, body, at from notes');
    expect(objects.rows).toEqual([{ id: 1, body: 'first', at: expect.any(Date) }]);
    const arrays = await db.query<unknown[]>('select id, at from notes', [], { rowMode: 'array', parsers: { 1184: (value) => value } });
    expect(arrays.rows[0]![0]).toBe(1);
    expect(typeof arrays.rows[0]![1]).toBe('string');
  });

  it('prepares a statement with parameters once and then only runs it, with the values and types PGlite’s own query gives', async () => {
    await db.exec('create table prepared_notes (id int primary key, body jsonb, flag boolean, at timestamptz)');
    const at = new Date('2026-11-28T10:00:00.000Z');
    for (let id = 1; id <= 3; id++) {
      await db.query('insert into prepared_notes (id, body, flag, at) values ($1, $2, $3, $4)', [id, { n: id }, id % 2 === 0, at]);
    }
    const read = 'select id, body, flag, at from prepared_notes where id >= $1 order by id';
    const { rows } = await db.query(read, [2]);
    expect(rows).toEqual([
      { id: 2, body: { n: 2 }, flag: true, at },
      { id: 3, body: { n: 3 }, flag: false, at },
    ]);
    const named = await db.query<{ statement: string }>('select statement from pg_prepared_statements');
    expect(named.rows.filter((row) => row.statement.includes('prepared_notes')).map((row) => row.statement)).toEqual(
      expect.arrayContaining([read, 'insert into prepared_notes (id, body, flag, at) values ($1, $2, $3, $4)']),
    );
    expect(named.rows.filter((row) => row.statement === read)).toHaveLength(1);

    // A statement run outside a transaction waits for the one open, as PGlite's own query does.
    let outsideRan = false;
    const inside = db.transaction(async (tx) => {
      await tx.query('insert into prepared_notes (id) values ($1)', [9]);
      // The same negative check as below, for a prepared statement.
      await new Promise((resolve) => setTimeout(resolve, INTERLEAVE_WINDOW_MS));
      expect(outsideRan).toBe(false);
    });
    const outside = db.query<{ n: number }>('select count(*)::int as n from prepared_notes where id > $1', [0]).then((result) => {
      outsideRan = true;
      return result;
    });
    await inside;
    expect((await outside).rows).toEqual([{ n: 4 }]);

    // A table changed under a prepared statement: it is prepared again, and the read answers.
    await db.exec('alter table prepared_notes alter column flag type text');
    expect((await db.query(read, [3])).rows).toEqual([
      { id: 3, body: { n: 3 }, flag: 'false', at },
      { id: 9, body: null, flag: null, at: null },
    ]);
    // An error in a prepared statement leaves the connection as it was.
    await expect(db.query('insert into prepared_notes (id) values ($1)', [9])).rejects.toMatchObject({ code: '23505' });
    expect((await db.query(read, [4])).rows).toEqual([{ id: 9, body: null, flag: null, at: null }]);
  });

  it('refuses a parser that does more than keep the text, rather than ignore it', () => {
    expect(() => db.query('select 1', [], { parsers: { 1184: (value) => new Date(value) } })).toThrow(/cannot cross threads/);
  });

  it('passes on PostgreSQL’s error with its code and constraint, as the server’s code reads them', async () => {
    const failure = await db.query('insert into notes (id, body) values (1, $1)', ['again']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ code: '23505', constraint: 'notes_pkey' });
  });

  it('commits a transaction that returns and rolls back one that throws; others wait for it', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into notes (id, body) values (2, $1)', ['kept']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into notes (id, body) values (3, $1)', ['undone']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');

    let outsideRan = false;
    const inside = db.transaction(async (tx) => {
      await tx.query('insert into notes (id, body) values (4, $1)', ['first in']);
      // A negative check: nothing shows a query is held back but that it has not run yet.
      await new Promise((resolve) => setTimeout(resolve, INTERLEAVE_WINDOW_MS));
      expect(outsideRan).toBe(false);
    });
    const outside = db.query('select count(*)::int as n from notes').then((result) => {
      outsideRan = true;
      return result;
    });
    await inside;
    const { rows } = await outside;
    expect(rows).toEqual([{ n: 3 }]);
    const { rows: ids } = await db.query<{ id: number }>('select id from notes order by id');
    expect(ids.map((row) => row.id)).toEqual([1, 2, 4]);
  });

  it('holds the database from a transaction’s first statement, not while the statement is being made', async () => {
    let outsideRan = false;
    const inside = db.transaction(async (tx) => {
      // The server's own work before the first statement: others may use the database meanwhile.
      await waitFor(() => outsideRan, { timeoutMs: 5_000, what: 'the query outside the transaction' });
      expect(outsideRan).toBe(true);
      await tx.query('insert into notes (id, body) values (20, $1)', ['late start']);
    });
    await db.query('select 1');
    outsideRan = true;
    await inside;
    expect((await db.query('select body from notes where id = 20')).rows).toEqual([{ body: 'late start' }]);
    // A transaction that runs no statement holds nothing and commits nothing.
    await expect(db.transaction(async () => 'nothing to do')).resolves.toBe('nothing to do');
    await db.query('delete from notes where id = 20');
  });

  it('runs statements sent at once at a transaction’s start in that one transaction, and rolls all back', async () => {
    await expect(
      db.transaction(async (tx) => {
        await Promise.all([
          tx.query('insert into notes (id, body) values (21, $1)', ['a']),
          tx.query('insert into notes (id, body) values (22, $1)', ['b']),
          tx.exec("insert into notes (id, body) values (23, 'c')"),
        ]);
        throw new Error('none of it');
      }),
    ).rejects.toThrow('none of it');
    expect((await db.query('select count(*)::int as n from notes where id between 21 and 23')).rows).toEqual([{ n: 0 }]);
  });

  it('ends a transaction whose first statement failed, and frees the database for the next', async () => {
    const failure = await db
      .transaction(async (tx) => {
        await tx.query('insert into notes (id, body) values (1, $1)', ['taken']);
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '23505' });
    await db.transaction(async (tx) => {
      await tx.query('insert into notes (id, body) values (24, $1)', ['after a failure']);
    });
    expect((await db.query('select body from notes where id = 24')).rows).toEqual([{ body: 'after a failure' }]);
    await db.query('delete from notes where id = 24');
  });

  it('runs several statements with exec, and delivers notifications until unlistened', async () => {
    const results = await db.exec('select 1 as a; select 2 as b');
    expect(results.map((result) => result.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]]);

    const heard: string[] = [];
    const stop = await db.listen('news', (payload) => heard.push(payload));
    await db.query(`select pg_notify('news', $1)`, ['hello']);
    await expect.poll(() => heard).toEqual(['hello']);
    await stop();
    await db.query(`select pg_notify('news', $1)`, ['unheard']);
    await db.query('select 1');
    expect(heard).toEqual(['hello']);
  });

  it('dumps its data directory as a tar', async () => {
    const dump = await db.dumpDataDir('none');
    expect(dump.size).toBeGreaterThan(1024 * 1024);
    // A tar's header names its first entry and says "ustar" at offset 257.
    expect(Buffer.from(await dump.slice(257, 262).arrayBuffer()).toString()).toBe('ustar');
  });
});

describe('a closed embedded database', () => {
  it('answers every later query with an error instead of waiting for ever', async () => {
    const closing = await PgliteInThread.open('memory://');
    await closing.close();
    await expect(closing.query('select 1')).rejects.toThrow(/stopped/);
  });
});
