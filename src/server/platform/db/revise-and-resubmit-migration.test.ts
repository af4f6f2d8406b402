import { describe, expect, it } from 'vitest';
import { databaseBefore } from '../../test/migration-fixtures';

/**
 * Migration 0035 (decision 197) on a database that already has submissions: each one sent to the
 * label gets its round 1, its music (or video) as the row holds it; drafts get none; existing
 * comments are on round 1.
 */
const TAG = '0035_revise-and-resubmit';

describe('migration 0035', () => {
  it('records round 1 of every submission sent to the label, none for drafts, and puts existing comments on round 1', async () => {
    const { client, migrateRest, close } = await databaseBefore(TAG);
    await client.exec(`
      insert into users (id, email, first_name, last_name, role) values ('u1', 'a@example.com', 'A', 'B', 'user');
      insert into uploads (id, user_id, status, content_type, file_name, upload_expires_at) values ('up1', 'u1', 'stored', 'audio/mpeg', 'glass-harbour.mp3', now());
      insert into submissions (id, user_id, artist_name, song_title, status, submission_type, submission_method, music_url, music_file_url, video_url, release_status, video_style, pricing_tier, has_lyrics, ai_usage, created_at)
        values ('s-file', 'u1', 'A', 'One', 'under_review', 'track', 'upload', null, '/objects/uploads/up1', null, 'unreleased', 'non-custom', 'free', false, false, '2026-05-01T10:00:00Z'),
               ('s-link', 'u1', 'A', 'Two', 'approved', 'track', 'link', 'https://example.com/two', null, null, 'unreleased', 'non-custom', 'free', false, false, '2026-05-02T10:00:00Z'),
               ('s-video', 'u1', 'A', 'Three', 'pending', 'video', 'link', null, null, 'https://example.com/three', 'unreleased', 'non-custom', 'free', false, false, '2026-05-03T10:00:00Z'),
               ('s-draft', 'u1', 'A', 'Four', 'draft', 'track', 'link', 'https://example.com/four', null, null, 'unreleased', 'non-custom', 'free', false, false, '2026-05-04T10:00:00Z');
      insert into track_comments (id, submission_id, at_seconds, text) values ('c1', 's-file', 12, 'Vocals buried');
    `);
    await migrateRest();
    const { rows } = await client.query<{ submission_id: string; round: number; file_name: string | null; url: string | null; object_path: string | null; upload_id: string | null; created_by: string; created_at: Date }>(
      'select submission_id, round, file_name, url, object_path, upload_id, created_by, created_at from submission_versions order by submission_id',
    );
    expect(rows.map((r) => [r.submission_id, r.round, r.file_name, r.url, r.object_path, r.upload_id, r.created_by])).toEqual([
      ['s-file', 1, 'glass-harbour.mp3', null, '/objects/uploads/up1', 'up1', 'u1'],
      ['s-link', 1, null, 'https://example.com/two', null, null, 'u1'],
      ['s-video', 1, null, 'https://example.com/three', null, null, 'u1'],
    ]);
    expect(new Date(rows[0]!.created_at).toISOString()).toBe('2026-05-01T10:00:00.000Z');
    const rounds = await client.query<{ id: string; round: number }>('select id, round from submissions order by id');
    expect(rounds.rows.every((r) => r.round === 1)).toBe(true);
    expect((await client.query<{ round: number }>(`select round from track_comments where id = 'c1'`)).rows).toEqual([{ round: 1 }]);
    // The new status is allowed, a fifth round is not, nor a second round 1.
    await client.exec(`update submissions set status = 'changes_requested' where id = 's-file'`);
    await expect(client.query(`update submissions set round = 5 where id = 's-file'`)).rejects.toThrow();
    await expect(client.query(`insert into submission_versions (id, submission_id, round) values ('dup', 's-file', 1)`)).rejects.toThrow();
    await close();
  });
});
