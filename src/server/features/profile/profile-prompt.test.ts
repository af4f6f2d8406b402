import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shouldPromptForProfile } from '@shared/users';
import { TEST_ORIGIN, createAdmin, createArtist, createTestApp, sessionCookie, type TestApp } from '../../test/helpers';

/** The first-visit profile prompt: dismissed once, remembered on the server (issue 11 part 1). */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const dismiss = (cookie: string | null) =>
  t.app.inject({
    method: 'POST',
    url: '/api/profile/prompt-dismissal',
    headers: cookie ? { cookie, origin: TEST_ORIGIN } : { origin: TEST_ORIGIN },
  });
const me = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).json();

describe('POST /api/profile/prompt-dismissal', () => {
  it('remembers the dismissal for every later visit and device, idempotently', async () => {
    const artist = await createArtist(t.db);
    const cookie = await sessionCookie(t.app, t.db, artist);
    const before = await me(cookie);
    expect(before.profilePromptDismissedAt).toBeNull();
    expect(shouldPromptForProfile(before)).toBe(true);

    const res = await dismiss(cookie);
    expect(res.statusCode).toBe(200);
    const at = res.json().profilePromptDismissedAt;
    expect(typeof at).toBe('string');
    expect(res.json()).not.toHaveProperty('password');

    const elsewhere = await sessionCookie(t.app, t.db, artist);
    const after = await me(elsewhere);
    expect(after.profilePromptDismissedAt).toBe(at);
    expect(shouldPromptForProfile(after)).toBe(false);
    expect((await dismiss(cookie)).json().profilePromptDismissedAt).toBe(at);
  });

  it('needs a signed-in user (401)', async () => {
    expect((await dismiss(null)).statusCode).toBe(401);
  });

  it('is never shown to the label’s team', async () => {
    const admin = await createAdmin(t.db);
    expect(shouldPromptForProfile(await me(await sessionCookie(t.app, t.db, admin)))).toBe(false);
  });
});
