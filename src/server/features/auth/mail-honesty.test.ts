import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser } from '@shared/account';
import type { PublicConfig } from '@shared/api';
import type { PublicUser } from '@shared/auth';
import { VERIFY_EMAIL_TEXTS } from '@shared/auth-texts';
import { createAdmin, createArtist, createTestApp, type TestApp } from '../../test/helpers';

/** Issue 23 items 5/11, decision 155: without a mail server nothing says "sent", and an admin may confirm an address. */
describe('without a mail server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('says so in /api/config, and the resent link is "queued", not sent', async () => {
    expect((await t.call('GET', '/api/config')).json<PublicConfig>().mailEnabled).toBe(false);
    const artist = await createArtist(t.db, { emailVerified: false });
    const res = await t.call('POST', '/api/verify-email/resend', await t.signIn(artist));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ mail: 'queued', message: VERIFY_EMAIL_TEXTS.queued });
  });

  it('lets an admin confirm an artist’s address, once; artists may not, and unknown ids are 404', async () => {
    const artist = await createArtist(t.db, { emailVerified: false });
    const artistCookie = await t.signIn(artist);
    const admin = await t.signIn(await createAdmin(t.db));
    expect((await t.call('POST', `/api/admin/users/${artist.id}/verify-email`, artistCookie)).statusCode).toBe(403);
    const confirmed = await t.call('POST', `/api/admin/users/${artist.id}/verify-email`, admin);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<AdminUser>()).toMatchObject({ id: artist.id, emailVerified: true });
    // The artist's own session sees it at once: the banner goes.
    expect((await t.call('GET', '/api/user', artistCookie)).json<PublicUser>().emailVerified).toBe(true);
    const again = await t.call('POST', `/api/admin/users/${artist.id}/verify-email`, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'email_already_confirmed' });
    expect((await t.call('POST', '/api/admin/users/nobody/verify-email', admin)).statusCode).toBe(404);
  });
});

describe('with a mail server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { smtp: true });
  });
  afterAll(() => t?.close());

  it('says the link is on its way, and leaves confirming to the link (409 for an admin)', async () => {
    expect((await t.call('GET', '/api/config')).json<PublicConfig>().mailEnabled).toBe(true);
    const artist = await createArtist(t.db, { emailVerified: false });
    const res = await t.call('POST', '/api/verify-email/resend', await t.signIn(artist));
    expect(res.json()).toMatchObject({ mail: 'sending' });
    const admin = await t.signIn(await createAdmin(t.db));
    const refused = await t.call('POST', `/api/admin/users/${artist.id}/verify-email`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'mail_configured' });
  });
});
