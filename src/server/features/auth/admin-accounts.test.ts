import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../platform/db/client';
import { users } from '../../platform/db/schema';
import { createAdmin, createArtist, createTestApp, createTestDatabase, sessionCookie, TEST_PASSWORD, type TestApp } from '../../test/helpers';
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
    expect(second!.id).toBe(first!.id);
    expect(first).toMatchObject({ email: 'boss@label.example', role: 'admin', emailVerified: true });
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: admin });
    expect(login.statusCode).toBe(200);
    expect(login.json().role).toBe('admin');
  });

  it('promotes an existing artist and sets the configured password', async () => {
    // Only an account whose address is verified: an unverified one may be a stranger's (issue 22 finding 3).
    const artist = await createArtist(t.db, { emailVerified: true });
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
    // Three runs of the command, each starting Node and opening the database.
  }, 180_000);
});

const runAdminCli = (env: Record<string, string>, ...args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/admin-cli.ts', ...args], {
    env: { ...process.env, SESSION_SECRET: 'x'.repeat(32), ...env },
  });

// Issue 9 finding 5: the command printed success against a database a running server held, and
// the server's own writes then lost the change.
const onEmbedded = inject('testDatabase').kind === 'pglite';
(onEmbedded ? describe : () => undefined)('npm run admin against an embedded database a server holds', () => {
  it('refuses with one clear line and changes nothing; once the server is gone, it applies', async () => {
    const scratch = await createTestDatabase();
    try {
      const admin = await createAdmin(scratch.database.db);
      const env = { DATA_DIR: scratch.dataDir };
      // This process holds the database, as a running server would.
      const refused = await runAdminCli(env, 'demote', admin.email!).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(refused?.code).toBe(1);
      expect(refused?.stdout).toBe('');
      expect(refused?.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused?.stderr).toMatch(/^The embedded database in .* is in use by process \d+ \(a running server\?\): stop it first, or use DATABASE_URL\n$/);
      const [unchanged] = await scratch.database.db.select().from(users).where(eq(users.id, admin.id));
      expect(unchanged!.role).toBe('admin');

      await scratch.database.close();
      const applied = await runAdminCli(env, 'demote', admin.email!);
      expect(applied.stdout).toContain(`${admin.email} is now an artist`);
      const reopened = await openDatabase({ pgliteDir: `${scratch.dataDir}/db` });
      try {
        const [row] = await reopened.db.select().from(users).where(eq(users.id, admin.id));
        expect(row!.role).toBe('user');
      } finally {
        await reopened.close();
      }
    } finally {
      await scratch.drop().catch(() => {});
    }
  }, 180_000);
});

(onEmbedded ? () => undefined : describe)('npm run admin against PostgreSQL while a server runs', () => {
  it('demotes, and the running server stops admitting the demoted admin at once', async () => {
    const admin = await createAdmin(t.db);
    const cookie = await sessionCookie(t.app, t.db, admin);
    expect((await t.app.inject({ url: '/api/admin/submissions', headers: { cookie } })).statusCode).toBe(200);
    const done = await runAdminCli({ DATABASE_URL: t.database.connectionString! }, 'demote', admin.email!);
    expect(done.stdout).toContain(`${admin.email} is now an artist`);
    const deadline = Date.now() + 1000;
    let status = 200;
    while (status !== 403 && Date.now() < deadline) {
      status = (await t.app.inject({ url: '/api/admin/submissions', headers: { cookie } })).statusCode;
    }
    expect(status).toBe(403);
  }, 90_000);
});
