import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSAFE_TEXT_MESSAGE } from '../platform/input-checks';
import type { UserRow } from '../platform/db/schema';
import { createAdmin, createArtist, createTestApp, TEST_ORIGIN, type TestApp } from '../test/helpers';

/** Issue 9 finding 2: NUL and unpaired surrogates are refused before any query; error logs hold no secrets. */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
let artist: UserRow;
let artistCookie: string;
let admin: UserRow;
let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp({}, { logger: { level: 'info', stream: logStream } });
  artist = await createArtist(t.db);
  artistCookie = await t.signIn(artist);
  admin = await createAdmin(t.db);
  adminCookie = await t.signIn(admin);
});
afterAll(() => t?.close());

const NUL = '\u0000';
const LONE_HIGH = '\ud800';
const LONE_LOW = 'x\udc00y';

const send = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown, cookie?: string) => t.call(method, url, cookie, payload);

describe('text that PostgreSQL cannot store', () => {
  const register = (bad: string) => ({
    email: `nul-${Math.random().toString(36).slice(2)}@example.com`,
    password: 'long-enough-1',
    firstName: `Ann${bad}`,
    lastName: 'Lee',
  });

  it.each([
    ['NUL', NUL],
    ['a lone high surrogate', LONE_HIGH],
    ['a lone low surrogate', LONE_LOW],
  ])('refuses %s in any JSON string with 400, on every route', async (_name, bad) => {
    const cases = [
      send('POST', '/api/register', register(bad)),
      send('POST', '/api/login', { email: `a${bad}@example.com`, password: 'whatever1' }),
      send('POST', '/api/messages', { toUserId: admin.id, content: `hi${bad}` }, artistCookie),
      send('PUT', '/api/profile/social-links', { instagramHandle: `me${bad}` }, artistCookie),
      send('PATCH', '/api/admin/submissions/some-id/status', { status: 'approved', adminReview: `ok${bad}` }, adminCookie),
      send('PATCH', '/api/admin/submissions/some-id/notes', { notes: [`deep ${bad}`] }, adminCookie),
      send('POST', '/api/submissions', { [`key${bad}`]: 1 }, artistCookie),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ message: UNSAFE_TEXT_MESSAGE, code: 'unsafe_text' });
    }
  });

  it('refuses NUL and broken UTF-8 in the query string and the path', async () => {
    const query = await t.app.inject({ url: '/api/admin/submissions?q=a%00b', headers: { cookie: adminCookie } });
    expect(query.statusCode).toBe(400);
    const path = await t.app.inject({ url: '/api/submissions/a%00b', headers: { cookie: artistCookie } });
    expect(path.statusCode).toBe(400);
    const broken = await t.app.inject({ url: '/api/submissions/%ED%A0%80', headers: { cookie: artistCookie } });
    expect(broken.statusCode).toBe(400);
  });

  it('still takes well-formed text: emoji (surrogate pairs) and other scripts', async () => {
    const res = await send('POST', '/api/messages', { toUserId: admin.id, content: 'Merci 🎧 — 音楽' }, artistCookie);
    expect(res.statusCode).toBe(201);
    expect(res.json().content).toBe('Merci 🎧 — 音楽');
  });
});

describe('the error log', () => {
  it('keeps the error’s kind, message and stack, never the SQL parameters (a password hash), body or cookie', async () => {
    // A database error on the insert of a new user, whose parameters hold the password hash.
    await t.db.execute(sql`create or replace function hub_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'forced failure for the log test'; end $$`);
    await t.db.execute(sql`create trigger hub_test_refuse before insert on users for each row execute function hub_test_refuse()`);
    try {
      logLines.length = 0;
      const email = `logged-${Date.now()}@example.com`;
      const res = await send('POST', '/api/register', { email, password: 'secret-password-99', firstName: 'Lo', lastName: 'Gg' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Internal server error', code: 'internal' });

      const errorLines = logLines.filter((line) => JSON.parse(line).level >= 50);
      expect(errorLines).toHaveLength(1);
      const entry = JSON.parse(errorLines[0]!) as { err: { type: string; message: string; stack: string; cause?: { message: string } } };
      expect(entry.err.type).toBe('DrizzleQueryError');
      expect(entry.err.message).toMatch(/^Failed query: insert into "users"/);
      expect(entry.err.stack).toContain('    at ');
      expect(entry.err.cause?.message).toBe('forced failure for the log test');

      const everything = logLines.join('\n');
      expect(everything).not.toContain('scrypt$');
      expect(everything).not.toContain('secret-password-99');
      expect(everything).not.toContain(email);
    } finally {
      await t.db.execute(sql`drop trigger hub_test_refuse on users`);
    }
  });

  it('logs request paths without their query string (tokens travel there)', async () => {
    logLines.length = 0;
    await t.app.inject({ url: '/api/uploads/abc?token=very-secret-token', method: 'PUT', headers: { origin: TEST_ORIGIN } });
    expect(logLines.join('\n')).toContain('/api/uploads/abc');
    expect(logLines.join('\n')).not.toContain('very-secret-token');
  });

  it('writes one line per request as it is answered: method, path, status and time (issue 37)', async () => {
    logLines.length = 0;
    await t.app.inject({ url: '/api/user?tab=1', headers: { cookie: artistCookie } });
    const lines = logLines.map((line) => JSON.parse(line) as { msg: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/user' }, res: { statusCode: 200 } });
    expect(lines[0]!.responseTime).toBeGreaterThan(0);
  });
});
