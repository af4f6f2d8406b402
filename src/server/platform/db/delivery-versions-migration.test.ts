import { describe, expect, it } from 'vitest';
import { databaseBefore } from '../../test/migration-fixtures';

/**
 * Migration 0018 (decision 158) on a database that already has deliveries: each submission's are
 * numbered 1, 2, … in the order they were made, and the new rows need their version.
 */
const TAG = '0018_delivery-comments';

describe('migration 0018', () => {
  it('numbers existing deliveries per submission in delivery order', async () => {
    const { client, migrateRest, close } = await databaseBefore(TAG);
    await client.exec(`
      insert into users (id, email, first_name, last_name, role) values ('u1', 'a@example.com', 'A', 'B', 'user');
      insert into submissions (id, user_id, artist_name, song_title, status, submission_method, music_url, release_status, video_style, pricing_tier, has_lyrics, ai_usage)
        values ('s1', 'u1', 'A', 'One', 'in_creation', 'link', 'https://example.com/a', 'unreleased', 'non-custom', 'free', false, false),
               ('s2', 'u1', 'A', 'Two', 'in_creation', 'link', 'https://example.com/b', 'unreleased', 'non-custom', 'free', false, false);
      insert into deliveries (id, submission_id, created_at) values
        ('d-late', 's1', '2026-03-01T00:00:00Z'), ('d-early', 's1', '2026-01-01T00:00:00Z'), ('d-mid', 's1', '2026-02-01T00:00:00Z'),
        ('d-other', 's2', '2026-02-15T00:00:00Z');
    `);
    await migrateRest();
    const { rows } = await client.query<{ id: string; version: number }>('select id, version from deliveries order by id');
    expect(Object.fromEntries(rows.map((r) => [r.id, r.version]))).toEqual({ 'd-early': 1, 'd-mid': 2, 'd-late': 3, 'd-other': 1 });
    await expect(client.query(`insert into deliveries (id, submission_id, version) values ('d-dup', 's1', 3)`)).rejects.toThrow();
    await close();
  });
});
