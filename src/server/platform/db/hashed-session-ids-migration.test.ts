import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { hashSessionId } from '../sessions';
import { migrationsFolder } from './client';

/**
 * Migration 0026 (decision 172) on a database with sessions open: each stored id becomes its
 * SHA-256, the key the server now looks a cookie's id up by, so nobody is signed out.
 */
const TAG = '0026_hashed-session-ids';
const dir = mkdtempSync(path.join(os.tmpdir(), 'migration-0026-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function folderBefore(tag: string): string {
  const folder = path.join(dir, 'before');
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === tag));
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

describe('migration 0026', () => {
  it('stores the sessions already open by the hash of their id, as the server looks them up', async () => {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: folderBefore(TAG) });
    const ids = ['Zm9vYmFyLWJhei0xMjM0NTY3ODkwLWFiY2RlZmdoaWprbG1ub3A', 'another_session-id'];
    await client.exec(`insert into users (id, email, first_name, last_name, role) values ('u1', 'a@example.com', 'A', 'B', 'user')`);
    for (const id of ids) {
      await client.query(`insert into sessions (sid, sess, expire, user_id) values ($1, '{}'::jsonb, now() + interval '1 day', 'u1')`, [id]);
    }
    await migrate(db, { migrationsFolder });
    const { rows } = await client.query<{ sid: string }>('select sid from sessions order by sid');
    expect(rows.map((r) => r.sid).sort()).toEqual(ids.map(hashSessionId).sort());
    await client.close();
  }, 120_000);
});
