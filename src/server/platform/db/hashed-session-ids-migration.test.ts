import { describe, expect, it } from 'vitest';
import { databaseBefore } from '../../test/migration-fixtures';
import { hashSessionId } from '../sessions';

/**
 * Migration 0026 (decision 172) on a database with sessions open: each stored id becomes its
 * SHA-256, the key the server now looks a cookie's id up by, so nobody is signed out.
 */
const TAG = '0026_hashed-session-ids';

describe('migration 0026', () => {
  it('stores the sessions already open by the hash of their id, as the server looks them up', async () => {
    const { client, migrateRest, close } = await databaseBefore(TAG);
    const ids = ['Zm9vYmFyLWJhei0xMjM0NTY3ODkwLWFiY2RlZmdoaWprbG1ub3A', 'another_session-id'];
    await client.exec(`insert into users (id, email, first_name, last_name, role) values ('u1', 'a@example.com', 'A', 'B', 'user')`);
    for (const id of ids) {
      await client.query(`insert into sessions (sid, sess, expire, user_id) values ($1, '{}'::jsonb, now() + interval '1 day', 'u1')`, [id]);
    }
    await migrateRest();
    const { rows } = await client.query<{ sid: string }>('select sid from sessions order by sid');
    expect(rows.map((r) => r.sid).sort()).toEqual(ids.map(hashSessionId).sort());
    await close();
  }, 120_000);
});
