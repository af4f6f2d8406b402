import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from './client';

/**
 * Migration 0018 (decision 158) on a database that already has deliveries: each submission's are
 * numbered 1, 2, … in the order they were made, and the new rows need their version.
 */
const TAG = '0018_delivery-comments';
const dir = mkdtempSync(path.join(os.tmpdir(), 'migration-0018-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as it was before `tag`: its journal cut just before it. */
function folderBefore(tag: string): string {
  const folder = path.join(dir, 'before');
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === tag));
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

describe('migration 0018', () => {
  it('numbers existing deliveries per submission in delivery order', async () => {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: folderBefore(TAG) });
    await client.exec(`
      insert into users (id, email, first_name, last_name, role) values ('u1', 'a@example.com', 'A', 'B', 'user');
      insert into submissions (id, user_id, artist_name, song_title, status, submission_method, music_url, release_status, video_style, pricing_tier, has_lyrics, ai_usage)
        values ('s1', 'u1', 'A', 'One', 'in_creation', 'link', 'https://example.com/a', 'unreleased', 'non-custom', 'free', false, false),
               ('s2', 'u1', 'A', 'Two', 'in_creation', 'link', 'https://example.com/b', 'unreleased', 'non-custom', 'free', false, false);
      insert into deliveries (id, submission_id, created_at) values
        ('d-late', 's1', '2026-03-01T00:00:00Z'), ('d-early', 's1', '2026-01-01T00:00:00Z'), ('d-mid', 's1', '2026-02-01T00:00:00Z'),
        ('d-other', 's2', '2026-02-15T00:00:00Z');
    `);
    await migrate(db, { migrationsFolder });
    const { rows } = await client.query<{ id: string; version: number }>('select id, version from deliveries order by id');
    expect(Object.fromEntries(rows.map((r) => [r.id, r.version]))).toEqual({ 'd-early': 1, 'd-mid': 2, 'd-late': 3, 'd-other': 1 });
    await expect(client.query(`insert into deliveries (id, submission_id, version) values ('d-dup', 's1', 3)`)).rejects.toThrow();
    await client.close();
  });
});
