import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArtist, createTestApp, type TestApp } from '../../test/helpers';
import { passwordResetTokens, users, type UserRow } from '../../platform/db/schema';
import type { ReceivedEmail } from '../../test/smtp-test-server';

/**
 * GET /api/password-reset?token=… (issue 43): the reset page asks it when it opens, so a link
 * already used or expired says so before the person types a new password. Read only.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { smtp: true, addressPerCall: true });
});
afterAll(() => t?.close());

const to = (email: string | null) => (received: ReceivedEmail) => received.to.includes(email ?? '');
const check = (token: string) => t.call('GET', `/api/password-reset?token=${encodeURIComponent(token)}`);
const confirm = (token: string, password = 'brand-new-pass-1') => t.call('POST', '/api/password-reset/confirm', undefined, { token, password });
const INVALID = { message: 'This link is invalid or has expired', code: 'invalid_reset_link' };

async function resetLinkFor(user: UserRow): Promise<string> {
  const before = t.smtp.received.filter(to(user.email)).length;
  expect((await t.call('POST', '/api/password-reset', undefined, { email: user.email })).statusCode).toBe(202);
  const email = await t.smtp.waitFor((e) => to(user.email)(e) && t.smtp.received.filter(to(user.email)).indexOf(e) >= before);
  return /\/reset-password\?token=([\w-]+)/.exec(email.mail.text ?? '')![1]!;
}

describe('GET /api/password-reset', () => {
  it('answers that a fresh link is usable, without spending it, and that a used one is not', async () => {
    const artist = await createArtist(t.db);
    const token = await resetLinkFor(artist);
    const fresh = await check(token);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toEqual({ usable: true });
    expect(fresh.headers['cache-control']).toBe('no-store');
    // Asked twice, it is still good: the check spends nothing.
    expect((await check(token)).statusCode).toBe(200);
    expect((await confirm(token)).statusCode).toBe(200);

    const used = await check(token);
    expect(used.statusCode).toBe(400);
    expect(used.json()).toEqual(INVALID);
  });

  it('says an expired link, an unknown one, and one whose account changed its password since are not usable', async () => {
    const artist = await createArtist(t.db);
    const token = await resetLinkFor(artist);
    await t.db.update(passwordResetTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(passwordResetTokens.userId, artist.id));
    expect((await check(token)).json()).toEqual(INVALID);
    expect((await check('x'.repeat(43))).json()).toEqual(INVALID);

    const other = await createArtist(t.db);
    const otherToken = await resetLinkFor(other);
    expect((await check(otherToken)).statusCode).toBe(200);
    await t.db.update(users).set({ password: 'scrypt$changed' }).where(eq(users.id, other.id));
    expect((await check(otherToken)).json()).toEqual(INVALID);
  });

  it('refuses a missing or oversized token with 400 and a message', async () => {
    const missing = await t.call('GET', '/api/password-reset');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('The link is missing its token');
    expect((await check('x'.repeat(500))).statusCode).toBe(400);
  });
});
