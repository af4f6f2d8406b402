import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../platform/db/schema';
import { createArtist, createTestApp, createTestDatabase, TEST_PASSWORD, type TestApp } from '../../test/helpers';
import { ensureAdminAccount } from './accounts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('ADMIN_EMAIL / ADMIN_PASSWORD', () => {
  it('creates the admin account once, idempotently, and it can sign in', async () => {
    const admin = { email: 'Boss@Label.example', password: 'admin-pass-1' };
    const first = await ensureAdminAccount(t.db, admin);
    const second = await ensureAdminAccount(t.db, admin);
    expect(second.id).toBe(first.id);
    expect(first).toMatchObject({ email: 'boss@label.example', role: 'admin' });
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: admin });
    expect(login.statusCode).toBe(200);
    expect(login.json().role).toBe('admin');
  });

  it('promotes an existing artist and sets the configured password', async () => {
    const artist = await createArtist(t.db);
    await ensureAdminAccount(t.db, { email: artist.email!, password: 'new-admin-pass' });
    const [row] = await t.db.select().from(users).where(eq(users.id, artist.id));
    expect(row!.role).toBe('admin');
    const oldPassword = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: artist.email, password: TEST_PASSWORD } });
    expect(oldPassword.statusCode).toBe(401);
  });
});

describe('npm run admin -- promote <email>', () => {
  it('makes an existing user an admin, and says so when the email is unknown', async () => {
    // The CLI opens the database itself, so it gets one of its own (PGlite allows one process).
    const scratch = await createTestDatabase();
    try {
      const artist = await createArtist(scratch.database.db);
      await scratch.database.close();
      const run = (...args: string[]) =>
        promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/admin-cli.ts', ...args], {
          env: {
            ...process.env,
            DATA_DIR: scratch.dataDir,
            SESSION_SECRET: 'x'.repeat(32),
            ...(scratch.database.connectionString ? { DATABASE_URL: scratch.database.connectionString } : {}),
          },
        });
      const ok = await run('promote', artist.email!);
      expect(ok.stdout).toContain(`${artist.email} is now an admin`);
      await expect(run('promote', 'nobody@example.com')).rejects.toMatchObject({ stderr: expect.stringContaining('No user with email nobody@example.com') });
      await expect(run('elevate', 'x')).rejects.toMatchObject({ code: 2 });
    } finally {
      await scratch.drop().catch(() => {});
    }
  }, 60_000);
});
