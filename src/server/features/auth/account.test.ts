import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { drainOutbox, readZip, settleJobs } from '../../test/kit';
import { ACCOUNT_TEXTS } from '@shared/auth-texts';
import { DELETION_TEXTS, type AccountSession, type AdminUsersPage } from '@shared/account';
import { LICENSED_STATUSES, objectPathOf } from '@shared/submissions';
import {
  billingDocuments,
  bonusEarnings,
  deliveries,
  deliveryFiles,
  emailVerificationTokens,
  messages,
  outboxEmails,
  passwordResetTokens,
  paymentRecords,
  payoutAccounts,
  publications,
  rateLimitCounters,
  revisionRequests,
  sessions,
  submissionHistory,
  submissions,
  termsTexts,
  uploads,
  users,
  viewReadings,
  type UserRow,
} from '../../platform/db/schema';
import { HIDDEN } from '../../platform/email/outbox';
import { newId } from '../../platform/ids';
import { RATE_LIMITS } from '../../platform/rate-limits';
import { LAST_SEEN_RESOLUTION_MS } from '../../platform/sessions';
import { createObjectStorage } from '../../platform/storage/create-storage';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../../test/helpers';
import type { ReceivedEmail, TestSmtpServer } from '../../test/smtp-test-server';
import { signInWithGoogle } from './accounts';
import { PASSWORD_RESET_JOB } from './password-reset';

/** CONTRACT §11, route by route, the bad paths included. Emails are read from a real SMTP server. */
let t: TestApp;
let smtp: TestSmtpServer;
let storage: ObjectStorage;

beforeAll(async () => {
  // A distinct client address per call, so per-address limits only count where a test means them to.
  t = await createTestApp({}, { smtp: true, addressPerCall: true });
  smtp = t.smtp;
  storage = createObjectStorage(t.config);
});
afterAll(() => t?.close());

const call: TestApp['call'] = (...args) => t.call(...args);

const to = (email: string | null) => (received: ReceivedEmail) => received.to.includes(email ?? '');
const signIn = (email: string, password: string, userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36') =>
  t.logIn(email, password, { 'user-agent': userAgent });
const isSignedIn = async (cookie: string) => (await call('GET', '/api/user', cookie)).statusCode === 200;

async function resetLinkFor(user: UserRow): Promise<string> {
  const before = smtp.received.filter(to(user.email)).length;
  const res = await call('POST', '/api/password-reset', undefined, { email: user.email!.toUpperCase() });
  expect(res.statusCode).toBe(202);
  const email = await smtp.waitFor((e) => to(user.email)(e) && smtp.received.filter(to(user.email)).indexOf(e) >= before);
  const link = /http:\/\/localhost:5000\/reset-password\?token=([\w-]+)/.exec(email.mail.text ?? '');
  expect(link).not.toBeNull();
  return link![1]!;
}

describe('POST /api/password-reset', () => {
  it('answers 202 with the same body whether or not the email exists, and mails only a real account', async () => {
    const artist = await createArtist(t.db);
    const known = await call('POST', '/api/password-reset', undefined, { email: artist.email });
    const unknownAddress = `nobody-${Date.now()}@example.com`;
    const unknown = await call('POST', '/api/password-reset', undefined, { email: unknownAddress });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ message: ACCOUNT_TEXTS.resetRequested });

    const email = await smtp.waitFor(to(artist.email));
    expect(email.mail.subject).toBe('Choose a new password for Submission Hub');
    expect(email.mail.text).toMatch(/http:\/\/localhost:5000\/reset-password\?token=[\w-]{30,}/);
    expect(email.mail.html).toContain('/reset-password?token=');
    // The stored copy has the link masked, and only a hash of the token is kept.
    const [row] = await t.db.select().from(outboxEmails).where(eq(outboxEmails.userId, artist.id));
    await expect.poll(async () => (await t.db.select().from(outboxEmails).where(eq(outboxEmails.id, row!.id)))[0]?.textBody).toContain(HIDDEN);
    const token = /token=([\w-]+)/.exec(email.mail.text ?? '')![1]!;
    const stored = await t.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, artist.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toBe(token);
    expect(stored[0]!.expiresAt.getTime() - stored[0]!.createdAt.getTime()).toBeCloseTo(60 * 60 * 1000, -4);

    // Nothing was ever queued for the unknown address: once both requests' jobs have run and the
    // outbox has settled, no email went to it.
    await settleJobs(t, PASSWORD_RESET_JOB);
    await drainOutbox(t);
    expect(smtp.received.filter(to(unknownAddress))).toHaveLength(0);
    const all = await t.db.select({ to: outboxEmails.toAddress }).from(outboxEmails);
    expect(all.map((r) => r.to)).not.toContain(unknownAddress);
  });

  it('refuses a malformed email with 400 and SPEC’s message', async () => {
    const res = await call('POST', '/api/password-reset', undefined, { email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter a valid email address');
  });

  it('limits requests per email address, from any client address: 429 with Retry-After', async () => {
    const email = `flood-${Date.now()}@example.com`;
    for (let i = 0; i < 5; i++) expect((await call('POST', '/api/password-reset', undefined, { email })).statusCode).toBe(202);
    const refused = await call('POST', '/api/password-reset', undefined, { email });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits requests per client address, whatever the email', async () => {
    const remoteAddress = '198.51.100.13';
    const ask = (n: number) =>
      t.app.inject({ method: 'POST', url: '/api/password-reset', remoteAddress, headers: { origin: TEST_ORIGIN }, payload: { email: `a${n}@example.com` } });
    for (let i = 0; i < 10; i++) expect((await ask(i)).statusCode).toBe(202);
    expect((await ask(99)).statusCode).toBe(429);
  });
});

describe('POST /api/password-reset/confirm', () => {
  it('sets the new password once and ends every session of the user', async () => {
    const artist = await createArtist(t.db);
    const first = await t.signIn(artist);
    const second = await signIn(artist.email!, TEST_PASSWORD);
    const token = await resetLinkFor(artist);

    const res = await call('POST', '/api/password-reset/confirm', undefined, { token, password: 'brand-new-pass-1' });
    expect(res.statusCode).toBe(200);
    expect(await isSignedIn(first)).toBe(false);
    expect(await isSignedIn(second!)).toBe(false);
    expect(await signIn(artist.email!, TEST_PASSWORD)).toBeNull();
    expect(await signIn(artist.email!, 'brand-new-pass-1')).not.toBeNull();
    // The link went to the account's address, so the address is now confirmed too.
    const [row] = await t.db.select({ emailVerified: users.emailVerified }).from(users).where(eq(users.id, artist.id));
    expect(row!.emailVerified).toBe(true);

    const again = await call('POST', '/api/password-reset/confirm', undefined, { token, password: 'another-pass-22' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: 'This link is invalid or has expired', code: 'invalid_reset_link' });
  });

  it('refuses an expired link with the same message, and changes nothing', async () => {
    const artist = await createArtist(t.db);
    const token = await resetLinkFor(artist);
    await t.db.update(passwordResetTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(passwordResetTokens.userId, artist.id));
    const res = await call('POST', '/api/password-reset/confirm', undefined, { token, password: 'brand-new-pass-1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This link is invalid or has expired');
    expect(await signIn(artist.email!, TEST_PASSWORD)).not.toBeNull();
  });

  it('refuses an unknown token, and a password that is too short', async () => {
    const bad = await call('POST', '/api/password-reset/confirm', undefined, { token: 'x'.repeat(43), password: 'brand-new-pass-1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('This link is invalid or has expired');
    const short = await call('POST', '/api/password-reset/confirm', undefined, { token: 'x'.repeat(43), password: '123' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Password must be at least 6 characters');
  });

  it('gives the browser that set the new password the device cookie: it signs in while the account is at its failure ceiling (decision 173)', async () => {
    const artist = await createArtist(t.db);
    const token = await resetLinkFor(artist);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/password-reset/confirm',
      remoteAddress: '198.19.0.1',
      headers: { origin: TEST_ORIGIN },
      payload: { token, password: 'brand-new-pass-1' },
    });
    expect(reset.statusCode).toBe(200);
    const device = reset.cookies.find((c) => c.name.startsWith('device_'))!;
    expect(device).toMatchObject({ httpOnly: true, path: '/api/login' });
    const login = (remoteAddress: string, cookie?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress,
        headers: cookie ? { cookie } : {},
        payload: { email: artist.email, password: 'brand-new-pass-1' },
      });
    await t.db.insert(rateLimitCounters).values({
      key: `login-email:${artist.email!.toLowerCase()}`,
      hits: RATE_LIMITS.loginFailuresPerEmail.max,
      windowStart: sql`now()`,
      windowEnd: sql`now() + interval '15 minutes'`,
    });
    expect((await login('198.19.0.2')).statusCode).toBe(429);
    expect((await login('198.19.0.2', `${device.name}=${device.value}`)).statusCode).toBe(200);
  });

  it('spends the other links of the user too', async () => {
    const artist = await createArtist(t.db);
    const older = await resetLinkFor(artist);
    // The first email has gone, so the second request is a second email with its own link.
    const newer = await resetLinkFor(artist);
    expect(newer).not.toBe(older);
    expect((await call('POST', '/api/password-reset/confirm', undefined, { token: newer, password: 'brand-new-pass-1' })).statusCode).toBe(200);
    expect((await call('POST', '/api/password-reset/confirm', undefined, { token: older, password: 'brand-new-pass-2' })).statusCode).toBe(400);
  });
});

describe('email verification', () => {
  it('counts a Google-verified address as verified, also for an account found by its Google id', async () => {
    const artist = await createArtist(t.db, { googleId: `g-${newId()}`, authProvider: 'google', emailVerified: false });
    const signedIn = await signInWithGoogle(t.db, {
      sub: artist.googleId!,
      email: artist.email!,
      emailVerified: true,
      firstName: undefined,
      lastName: undefined,
      picture: undefined,
    });
    expect(signedIn?.emailVerified).toBe(true);
  });
});

describe('PUT /api/account/password', () => {
  it('refuses a wrong current password with 400 and changes nothing', async () => {
    const artist = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    const res = await call('PUT', '/api/account/password', cookie, { currentPassword: 'not-it-at-all', newPassword: 'brand-new-pass-1' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: ACCOUNT_TEXTS.wrongCurrentPassword, code: 'wrong_password' });
    expect(await signIn(artist.email!, TEST_PASSWORD)).not.toBeNull();
  });

  it('changes it and ends every other session, keeping this one', async () => {
    const artist = await createArtist(t.db);
    const current = await t.signIn(artist);
    const other = await t.signIn(artist);
    const res = await call('PUT', '/api/account/password', current, { currentPassword: TEST_PASSWORD, newPassword: 'brand-new-pass-1' });
    expect(res.statusCode).toBe(200);
    expect(await isSignedIn(current)).toBe(true);
    expect(await isSignedIn(other)).toBe(false);
    expect(await signIn(artist.email!, 'brand-new-pass-1')).not.toBeNull();
  });

  it('answers 401 signed out', async () => {
    expect((await call('PUT', '/api/account/password', undefined, { currentPassword: 'x', newPassword: 'yyyyyyy' })).statusCode).toBe(401);
  });
});

describe('PUT /api/account/email', () => {
  it('keeps the old address until the link sent to the new one is opened', async () => {
    const artist = await createArtist(t.db, { emailVerified: true });
    const cookie = await t.signIn(artist);
    const newEmail = `moved-${Date.now()}@example.com`;

    const wrong = await call('PUT', '/api/account/email', cookie, { email: newEmail, currentPassword: 'nope-nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('wrong_password');

    const res = await call('PUT', '/api/account/email', cookie, { email: newEmail, currentPassword: TEST_PASSWORD });
    expect(res.statusCode).toBe(202);
    const me = (await call('GET', '/api/user', cookie)).json();
    expect(me.email).toBe(artist.email);
    expect(me.pendingEmail).toBe(newEmail);

    const email = await smtp.waitFor(to(newEmail));
    const token = /\/api\/verify-email\?token=([\w-]+)/.exec(email.mail.text ?? '')![1]!;
    const opened = await t.app.inject({ url: `/api/verify-email?token=${token}` });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/dashboard?verification=done');
    const after = (await call('GET', '/api/user', cookie)).json();
    expect(after).toMatchObject({ email: newEmail, pendingEmail: null, emailVerified: true });
    expect(await signIn(newEmail, TEST_PASSWORD)).not.toBeNull();
    expect(await signIn(artist.email!, TEST_PASSWORD)).toBeNull();
  });

  it('refuses an email-change link once used and once expired, and changes nothing more', async () => {
    const artist = await createArtist(t.db, { emailVerified: true });
    const cookie = await t.signIn(artist);
    const linkTo = async (address: string) => {
      expect((await call('PUT', '/api/account/email', cookie, { email: address, currentPassword: TEST_PASSWORD })).statusCode).toBe(202);
      const email = await smtp.waitFor(to(address));
      return /\/api\/verify-email\?token=([\w-]+)/.exec(email.mail.text ?? '')![1]!;
    };
    const open = async (token: string) => (await t.app.inject({ url: `/api/verify-email?token=${token}` })).headers.location;

    const first = `first-${newId()}@example.com`;
    const used = await linkTo(first);
    expect(await open(used)).toBe('/dashboard?verification=done');
    expect(await open(used)).toBe('/dashboard?verification=invalid');
    expect((await call('GET', '/api/user', cookie)).json()).toMatchObject({ email: first, pendingEmail: null });

    const second = `second-${newId()}@example.com`;
    const expired = await linkTo(second);
    await t.db
      .update(emailVerificationTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(emailVerificationTokens.email, second));
    expect(await open(expired)).toBe('/dashboard?verification=invalid');
    // The address stays the one confirmed before; the new one still waits for a valid link.
    expect((await call('GET', '/api/user', cookie)).json()).toMatchObject({ email: first, pendingEmail: second, emailVerified: true });
    // The used link of the first change does not bring anything back either.
    expect(await open(used)).toBe('/dashboard?verification=invalid');
  });

  it('refuses an address another account has (409) and a malformed one (400)', async () => {
    const artist = await createArtist(t.db);
    const other = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    expect((await call('PUT', '/api/account/email', cookie, { email: other.email, currentPassword: TEST_PASSWORD })).statusCode).toBe(409);
    expect((await call('PUT', '/api/account/email', cookie, { email: 'nope', currentPassword: TEST_PASSWORD })).statusCode).toBe(400);
  });
});

describe('sessions', () => {
  it('lists device, creation and last use, marks the current one, never shows a session id', async () => {
    const artist = await createArtist(t.db);
    const phone = await signIn(artist.email!, TEST_PASSWORD, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1');
    const laptop = await signIn(artist.email!, TEST_PASSWORD);
    const res = await call('GET', '/api/account/sessions', laptop!);
    expect(res.statusCode).toBe(200);
    const list = res.json<AccountSession[]>();
    expect(list).toHaveLength(2);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.find((s) => s.current)!.userAgent).toContain('Linux');
    expect(list.find((s) => !s.current)!.userAgent).toContain('iPhone');
    for (const s of list) expect(Object.keys(s).sort()).toEqual(['createdAt', 'current', 'id', 'lastSeenAt', 'userAgent']);
    const sids = (await t.db.select({ sid: sessions.sid }).from(sessions).where(eq(sessions.userId, artist.id))).map((r) => r.sid);
    for (const sid of sids) expect(res.body).not.toContain(sid);

    const phoneId = list.find((s) => !s.current)!.id;
    expect((await call('DELETE', `/api/account/sessions/${phoneId}`, laptop!)).statusCode).toBe(204);
    expect(await isSignedIn(phone!)).toBe(false);
    expect(await isSignedIn(laptop!)).toBe(true);
    expect((await call('DELETE', `/api/account/sessions/${phoneId}`, laptop!)).statusCode).toBe(404);
  });

  it('will not end another user’s session (404, and it stays)', async () => {
    const victim = await createArtist(t.db);
    const victimCookie = await t.signIn(victim);
    const [victimSession] = await t.db.select({ id: sessions.publicId }).from(sessions).where(eq(sessions.userId, victim.id));
    const attacker = await t.signIn(await createArtist(t.db));
    expect((await call('DELETE', `/api/account/sessions/${victimSession!.id}`, attacker)).statusCode).toBe(404);
    expect(await isSignedIn(victimCookie)).toBe(true);
  });

  it('signs out everywhere else', async () => {
    const artist = await createArtist(t.db);
    const others = [await t.signIn(artist), await t.signIn(artist)];
    const current = await t.signIn(artist);
    const res = await call('POST', '/api/account/sessions/revoke-others', current);
    expect(res.statusCode).toBe(200);
    expect(res.json<AccountSession[]>().map((s) => s.current)).toEqual([true]);
    for (const cookie of others) expect(await isSignedIn(cookie)).toBe(false);
    expect(await isSignedIn(current)).toBe(true);
  });

  it('writes lastSeenAt at most once a minute', async () => {
    const artist = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    const seen = async () => (await t.db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.userId, artist.id)))[0]!.at;
    const recent = new Date(Date.now() - LAST_SEEN_RESOLUTION_MS / 2);
    await t.db.update(sessions).set({ lastSeenAt: recent }).where(eq(sessions.userId, artist.id));
    await call('GET', '/api/user', cookie);
    expect((await seen()).getTime()).toBe(recent.getTime());

    const stale = new Date(Date.now() - 2 * LAST_SEEN_RESOLUTION_MS);
    await t.db.update(sessions).set({ lastSeenAt: stale }).where(eq(sessions.userId, artist.id));
    // A new cookie of the same session is not in this instance's memory, so the row is read.
    const fresh = await t.signIn(artist);
    await t.db.update(sessions).set({ lastSeenAt: stale }).where(eq(sessions.userId, artist.id));
    await call('GET', '/api/user', fresh);
    const rows = await t.db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.userId, artist.id));
    expect(rows.some((r) => r.at.getTime() > Date.now() - 10_000)).toBe(true);
  });
});

/** An upload of `owner`, stored with `bytes`, attached to `submissionId`. */
async function storedUpload(owner: UserRow, bytes: Buffer, submissionId: string | null, fileName = 'track.mp3') {
  const id = newId();
  await storage.receive(objectKey('uploads', id), Readable.from([bytes]), bytes.length + 1);
  await t.db.insert(uploads).values({
    id,
    userId: owner.id,
    status: 'stored',
    size: bytes.length,
    contentType: 'audio/mpeg',
    fileName,
    submissionId,
    uploadExpiresAt: new Date(Date.now() + 60_000),
  });
  return id;
}

async function pdfText(body: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(body)), { mergePages: true });
  return text;
}

describe('GET /api/account/export', () => {
  it('streams a ZIP with account.json (no hash, no internal notes) and the artist’s files, nobody else’s', async () => {
    const admin = await createAdmin(t.db);
    const artist = await createArtist(t.db, { artistName: 'Nova' });
    const other = await createArtist(t.db);
    const submission = await createSubmissionRow(t.db, artist, { adminNotes: 'internal: weak chorus', pricingTier: 'premium', songTitle: 'Blue Hour' });
    await t.db.insert(submissionHistory).values([
      { id: newId(), submissionId: submission.id, actorId: admin.id, field: 'status', fromValue: 'pending', toValue: 'under_review' },
      { id: newId(), submissionId: submission.id, actorId: admin.id, field: 'notes', fromValue: null, toValue: 'internal: weak chorus' },
    ]);
    await t.db.insert(messages).values({ id: newId(), fromUserId: admin.id, toUserId: artist.id, content: 'Love the track' });
    const bytes = Buffer.from('ID3 not really an mp3, but bytes all the same');
    const fileId = await storedUpload(artist, bytes, submission.id, '../../evil name.mp3');
    await storedUpload(other, Buffer.from('someone else'), null);

    const cookie = await t.signIn(artist);
    const res = await call('GET', '/api/account/export', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="account-\d{4}-\d{2}-\d{2}\.zip"$/);
    const zip = await readZip(res.rawPayload);
    const names = [...zip.keys()];
    expect(names).toContain('account.json');
    const fileEntry = names.find((n) => n.startsWith(`files/${fileId}-`))!;
    // The uploaded name cannot climb out of files/.
    expect(fileEntry.split('/')).toHaveLength(2);
    expect(fileEntry).not.toContain('/..');
    expect(zip.get(fileEntry)!.equals(bytes)).toBe(true);
    expect(names.filter((n) => n.startsWith('files/'))).toHaveLength(1);
    expect(fileEntry).toMatch(/\.mp3$/);

    const json = zip.get('account.json')!.toString();
    expect(json).not.toContain('scrypt$');
    expect(json).not.toContain('internal: weak chorus');
    const account = JSON.parse(json);
    expect(account.user).toMatchObject({ id: artist.id, email: artist.email, artistName: 'Nova' });
    expect(account.user.password).toBeUndefined();
    expect(account.submissions).toHaveLength(1);
    expect(account.submissions[0].songTitle).toBe('Blue Hour');
    expect(account.statusHistory).toEqual([expect.objectContaining({ field: 'status', toValue: 'under_review' })]);
    expect(account.messages).toEqual([expect.objectContaining({ content: 'Love the track', direction: 'received' })]);
    expect(account.payments).toEqual([expect.objectContaining({ submissionId: submission.id, pricingTier: 'premium', amount: submission.amount })]);
    expect(account.files).toEqual([expect.objectContaining({ id: fileId, path: fileEntry })]);
  });

  it('adds what comes after approval: deliveries, revision requests, the publication and its readings, bonus earnings, the licence', async () => {
    const admin = await createAdmin(t.db);
    const artist = await createArtist(t.db);
    const terms = { hash: createHash('sha256').update(`Terms for ${artist.id}`).digest('hex'), version: 'test-2026-11', text: `Terms for ${artist.id}` };
    await t.db.insert(termsTexts).values(terms);
    const acceptedAt = new Date('2026-11-02T10:00:00.000Z');
    const submission = await createSubmissionRow(t.db, artist, {
      status: 'published',
      pricingTier: 'professional',
      songTitle: 'After Approval',
      termsHash: terms.hash,
      termsAcceptedAt: acceptedAt,
    });
    const deliveryId = newId();
    const deliverable = newId();
    await t.db.insert(uploads).values({
      id: deliverable,
      userId: admin.id,
      status: 'stored',
      size: 1234,
      contentType: 'image/png',
      fileName: 'cover.png',
      submissionId: submission.id,
      uploadExpiresAt: new Date(Date.now() + 60_000),
    });
    await t.db.insert(deliveries).values({ id: deliveryId, submissionId: submission.id, version: 1, note: 'First cut', createdBy: admin.id });
    await t.db.insert(deliveryFiles).values({ uploadId: deliverable, deliveryId, position: 0 });
    await t.db.insert(revisionRequests).values({ id: newId(), submissionId: submission.id, number: 1, note: 'Brighter colours' });
    const publishedAt = new Date('2026-11-03T12:00:00.000Z');
    await t.db.insert(publications).values({
      submissionId: submission.id,
      videoUrl: 'https://youtu.be/exported001',
      publishedAt,
      subscriberCount: 31_000,
      subscriberSource: 'admin',
      checkAt: new Date(publishedAt.getTime() + 14 * 24 * 60 * 60 * 1000),
      checkedAt: new Date(publishedAt.getTime() + 14 * 24 * 60 * 60 * 1000),
      viewsAt14Days: 15_500,
      viralHit: true,
      hitRecordedAt: new Date(),
    });
    await t.db.insert(viewReadings).values({ id: newId(), submissionId: submission.id, views: 15_500, source: 'admin', recordedBy: admin.id });
    await t.db.insert(bonusEarnings).values({ submissionId: submission.id, userId: artist.id, amount: '25.00' });

    const res = await call('GET', '/api/account/export', await t.signIn(artist));
    expect(res.statusCode).toBe(200);
    const zip = await readZip(res.rawPayload);
    // The label's files are listed, not packed: the ZIP holds what the artist uploaded.
    expect([...zip.keys()].filter((n) => n.startsWith('files/'))).toHaveLength(0);
    const account = JSON.parse(zip.get('account.json')!.toString());
    expect(account.deliveries).toEqual([
      expect.objectContaining({ submissionId: submission.id, note: 'First cut', version: 1, files: [{ id: deliverable, fileName: 'cover.png', contentType: 'image/png', size: 1234 }], comments: [] }),
    ]);
    expect(account.revisionRequests).toEqual([expect.objectContaining({ submissionId: submission.id, number: 1, note: 'Brighter colours' })]);
    expect(account.publications).toEqual([
      expect.objectContaining({
        submissionId: submission.id,
        videoUrl: 'https://youtu.be/exported001',
        subscriberCount: 31_000,
        viewsNeeded: 15_500,
        viewsAt14Days: 15_500,
        viralHit: true,
        readings: [expect.objectContaining({ views: 15_500, source: 'admin' })],
      }),
    ]);
    expect(account.bonusEarnings).toEqual([expect.objectContaining({ submissionId: submission.id, amount: '25.00', status: 'owed' })]);
    expect(account.licences).toEqual([
      { submissionId: submission.id, termsVersion: terms.version, termsHash: terms.hash, acceptedAt: acceptedAt.toISOString() },
    ]);
    expect(account.termsTexts).toEqual([terms]);
    // Nobody else's: the admin who delivered and recorded the views is not named.
    expect(JSON.stringify(account)).not.toContain(admin.id);
  });

  it('adds each version’s comments from both sides, the invoices with their PDFs, the payout account and the team’s message files; nothing of another artist', async () => {
    const admin = await createAdmin(t.db, { firstName: 'Mara', lastName: 'Keller' });
    const artist = await createArtist(t.db, { artistName: 'Ilse' });
    const other = await createArtist(t.db, { artistName: 'Not Ilse' });
    const submission = await createSubmissionRow(t.db, artist, { status: 'in_creation', pricingTier: 'premium', songTitle: 'Cut Song' });
    const elsewhere = await createSubmissionRow(t.db, other, { status: 'in_creation', pricingTier: 'premium', songTitle: 'Other Song' });
    const delivered = async (submissionId: string, version: number) => {
      const id = newId();
      await t.db.insert(deliveries).values({ id, submissionId, version, note: `Cut ${version}`, createdBy: admin.id });
      return id;
    };
    const first = await delivered(submission.id, 1);
    const second = await delivered(submission.id, 2);
    const othersCut = await delivered(elsewhere.id, 1);
    const comment = async (who: UserRow, submissionId: string, deliveryId: string, body: Record<string, unknown>) => {
      const res = await call('POST', `/api/submissions/${submissionId}/deliveries/${deliveryId}/comments`, who, body);
      expect(res.statusCode).toBe(201);
      return res.json<{ id: string }>().id;
    };
    const fromTeam = await comment(admin, submission.id, first, { text: 'Is the drop too early?', atSeconds: 42.5 });
    await comment(artist, submission.id, first, { text: 'A little, move it to the chorus', replyTo: fromTeam });
    expect((await call('PATCH', `/api/submissions/${submission.id}/deliveries/${first}/comments/${fromTeam}`, artist, { resolved: true })).statusCode).toBe(200);
    await comment(admin, elsewhere.id, othersCut, { text: 'For the other artist only' });
    expect((await call('POST', `/api/submissions/${submission.id}/deliveries/${second}/approve`, artist)).statusCode).toBe(200);

    const issuedAt = new Date('2026-11-05T09:30:00.000Z');
    const documentOf = (owner: UserRow, submissionId: string, kind: 'invoice' | 'credit_note', number: string) => ({
      id: newId(),
      kind,
      year: 2026,
      sequence: Number(number.slice(-6)),
      number,
      submissionId,
      userId: owner.id,
      stripePaymentIntentId: `pi_${submissionId}`,
      issuedAt,
      pricingTier: 'premium' as const,
      songTitle: submissionId === submission.id ? 'Cut Song' : 'Other Song',
      amountCents: 9900,
      currency: 'usd',
      buyerName: owner.artistName,
      buyerEmail: owner.email,
      buyerCountry: 'Austria',
      invoiceNumber: kind === 'credit_note' ? `INV-2026-${number.slice(-6)}` : null,
    });
    const serial = String(Math.floor(Math.random() * 900_000) + 100_000);
    const invoice = `INV-2026-${serial}`;
    const creditNote = `CN-2026-${serial}`;
    const othersInvoice = `INV-2026-${String(Number(serial) + 1)}`;
    const keptInvoice = `INV-2026-${String(Number(serial) + 2)}`;
    await t.db.insert(billingDocuments).values([
      documentOf(artist, submission.id, 'invoice', invoice),
      documentOf(artist, submission.id, 'credit_note', creditNote),
      documentOf(other, elsewhere.id, 'invoice', othersInvoice),
      // The invoice of a submission deleted since: the label keeps it, and it is still the artist's.
      { ...documentOf(artist, submission.id, 'invoice', keptInvoice), submissionId: null, issuedAt: new Date('2026-11-01T08:00:00.000Z') },
    ]);
    await t.db.insert(payoutAccounts).values({ userId: artist.id, stripeAccountId: `acct_${artist.id}`, status: 'active' });

    // A file the team sends the artist, one the artist sends back, and one the team sends someone else.
    const teamBytes = Buffer.from('ID3 the team’s rough mix');
    const teamFile = await storedUpload(admin, teamBytes, null, 'rough mix.mp3');
    const artistFile = await storedUpload(artist, Buffer.from('ID3 the artist’s stems'), null, 'stems.mp3');
    const othersFile = await storedUpload(admin, Buffer.from('ID3 not for Ilse'), null, 'other.mp3');
    const send = async (from: UserRow, body: Record<string, unknown>) => {
      const res = await call('POST', '/api/messages', from, body);
      expect(res.statusCode).toBe(201);
      return res.json<{ id: string }>().id;
    };
    const teamMessage = await send(admin, { toUserId: artist.id, content: 'The rough mix', attachments: [objectPathOf(teamFile)] });
    const artistMessage = await send(artist, { content: 'My stems', attachments: [objectPathOf(artistFile)] });
    await send(admin, { toUserId: other.id, content: 'Yours', attachments: [objectPathOf(othersFile)] });

    const res = await call('GET', '/api/account/export', await t.signIn(artist));
    expect(res.statusCode).toBe(200);
    const zip = await readZip(res.rawPayload);
    const account = JSON.parse(zip.get('account.json')!.toString());

    // Every version with its thread as the artist sees it: the team member by name, the reply, the moment, the resolved mark, the approval.
    const [v1, v2] = account.deliveries;
    expect(account.deliveries).toHaveLength(2);
    expect(v1).toMatchObject({ id: first, version: 1, note: 'Cut 1', cutApprovedAt: null });
    expect(v1.comments).toEqual([
      expect.objectContaining({ id: fromTeam, text: 'Is the drop too early?', atSeconds: 42.5, replyTo: null, resolved: true, author: { name: 'Mara Keller', role: 'admin' } }),
      expect.objectContaining({ text: 'A little, move it to the chorus', replyTo: fromTeam, resolved: false, author: { name: 'Ilse', role: 'user' } }),
    ]);
    expect(v2).toMatchObject({ id: second, version: 2, comments: [] });
    expect(v2.cutApprovedAt).toEqual(expect.any(String));

    // The invoice and the credit note (issued at the same moment here, so in number order), listed and as the billing routes send them, byte for byte.
    expect(account.billingDocuments).toEqual([
      expect.objectContaining({ number: keptInvoice, kind: 'invoice', submissionId: null, path: `invoices/${keptInvoice}.pdf` }),
      expect.objectContaining({ number: creditNote, kind: 'credit_note', submissionId: submission.id, amount: '99.00', currency: 'usd', cancelsInvoice: invoice, path: `invoices/${creditNote}.pdf` }),
      expect.objectContaining({ number: invoice, kind: 'invoice', submissionId: submission.id, amount: '99.00', currency: 'usd', issuedAt: issuedAt.toISOString(), path: `invoices/${invoice}.pdf` }),
    ]);
    for (const [kind, number] of [['invoice.pdf', invoice], ['credit-note.pdf', creditNote]] as const) {
      const fromRoute = await call('GET', `/api/submissions/${submission.id}/${kind}`, artist);
      expect(fromRoute.statusCode).toBe(200);
      expect(zip.get(`invoices/${number}.pdf`)?.equals(fromRoute.rawPayload)).toBe(true);
    }
    expect([...zip.keys()].filter((n) => n.startsWith('invoices/')).sort()).toEqual([`invoices/${creditNote}.pdf`, `invoices/${invoice}.pdf`, `invoices/${keptInvoice}.pdf`].sort());
    expect((await pdfText(zip.get(`invoices/${keptInvoice}.pdf`)!))).toContain(keptInvoice);

    expect(account.payoutAccount).toEqual({ status: 'active', createdAt: expect.any(String) });

    // The team's file is in the ZIP, byte for byte, next to its message, as the artist can fetch it.
    const teamEntry = account.files.find((f: { id: string }) => f.id === teamFile)?.path as string;
    expect(teamEntry).toMatch(new RegExp(`^files/${teamFile}-rough mix\\.mp3$`));
    expect(zip.get(teamEntry)!.equals(teamBytes)).toBe(true);
    expect((await call('GET', objectPathOf(teamFile), artist)).rawPayload.equals(teamBytes)).toBe(true);
    const messageOf = (id: string) => account.messages.find((m: { id: string }) => m.id === id);
    expect(messageOf(teamMessage)).toMatchObject({ direction: 'received', attachments: [{ id: teamFile, fileName: 'rough mix.mp3', path: teamEntry }] });
    expect(messageOf(artistMessage)).toMatchObject({ direction: 'sent', attachments: [{ id: artistFile, path: expect.stringMatching(/^files\//) }] });

    const json = JSON.stringify(account);
    for (const foreign of ['For the other artist only', othersInvoice, othersFile, 'Not Ilse', `acct_${artist.id}`]) expect(json).not.toContain(foreign);
    expect([...zip.keys()].some((n) => n.includes(othersFile) || n.includes(othersInvoice))).toBe(false);
    // The team member is named, not identified.
    expect(JSON.stringify(account.deliveries)).not.toContain(admin.id);
  });

  it('answers 401 signed out', async () => {
    expect((await call('GET', '/api/account/export')).statusCode).toBe(401);
  });
});

describe('DELETE /api/account', () => {
  it('refuses a wrong password with 400 and changes nothing', async () => {
    const artist = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    await createSubmissionRow(t.db, artist);
    const res = await call('DELETE', '/api/account', cookie, { password: 'not-my-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: ACCOUNT_TEXTS.wrongPassword, code: 'wrong_password' });
    expect(await isSignedIn(cookie)).toBe(true);
    expect(await t.db.select().from(submissions).where(eq(submissions.userId, artist.id))).toHaveLength(1);
  });

  it('deletes everything not yet approved with its files, keeps approved work and payment records, signs out everywhere', async () => {
    const admin = await createAdmin(t.db);
    const artist = await createArtist(t.db, { artistName: 'Gone Soon', instagramHandle: '@gone' });
    const cookie = await t.signIn(artist);
    const elsewhere = await t.signIn(artist);
    // A payment not made (paid work is refunded first: paid-work-removal.test.ts); its record stays.
    const pending = await createSubmissionRow(t.db, artist, { pricingTier: 'basic', status: 'payment_failed', paymentStatus: 'failed', stripePaymentIntentId: `pi_${newId()}` });
    const approved = await createSubmissionRow(t.db, artist, { status: 'approved', songTitle: 'Keeper' });
    const pendingFile = await storedUpload(artist, Buffer.from('pending bytes'), pending.id);
    const approvedFile = await storedUpload(artist, Buffer.from('approved bytes'), approved.id);
    const looseFile = await storedUpload(artist, Buffer.from('loose bytes'), null);
    await t.db.insert(messages).values([
      { id: newId(), fromUserId: artist.id, toUserId: admin.id, content: 'Hello label' },
      { id: newId(), fromUserId: admin.id, toUserId: artist.id, content: 'Hello artist' },
    ]);

    const res = await call('DELETE', '/api/account', cookie, { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(204);
    expect(await isSignedIn(cookie)).toBe(false);
    expect(await isSignedIn(elsewhere)).toBe(false);
    expect(await signIn(artist.email!, TEST_PASSWORD)).toBeNull();

    const left = await t.db.select().from(submissions).where(eq(submissions.userId, artist.id));
    expect(left.map((s) => s.id)).toEqual([approved.id]);
    expect(await storage.check(objectKey('uploads', pendingFile))).toBeNull();
    expect(await storage.check(objectKey('uploads', looseFile))).toBeNull();
    expect(await storage.check(objectKey('uploads', approvedFile))).not.toBeNull();
    expect((await t.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.userId, artist.id))).map((u) => u.id)).toEqual([approvedFile]);
    expect(await t.db.select().from(messages).where(eq(messages.toUserId, admin.id))).toHaveLength(0);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, artist.id))).toHaveLength(0);

    const [record] = await t.db.select().from(paymentRecords).where(eq(paymentRecords.submissionId, pending.id));
    expect(record).toMatchObject({ stripePaymentIntentId: pending.stripePaymentIntentId, amount: pending.amount, pricingTier: 'basic' });

    const [row] = await t.db.select().from(users).where(eq(users.id, artist.id));
    expect(row).toMatchObject({ email: null, password: null, firstName: null, lastName: null, artistName: null, instagramHandle: null });
    expect(row!.deletedAt).not.toBeNull();
    // The team still sees the licensed work.
    const adminCookie = await t.signIn(admin);
    const seen = await call('GET', `/api/admin/submissions/${approved.id}`, adminCookie);
    expect(seen.statusCode).toBe(200);
    expect(seen.body).not.toContain(artist.email!);
  });

  it('keeps every licensed status, published included, and says so in the texts the screen and the Privacy Policy show', async () => {
    const artist = await createArtist(t.db);
    const kept = await Promise.all(LICENSED_STATUSES.map((status) => createSubmissionRow(t.db, artist, { status })));
    expect(LICENSED_STATUSES).toContain('published');
    const res = await call('DELETE', '/api/account', await t.signIn(artist), { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(204);
    const left = await t.db.select({ id: submissions.id }).from(submissions).where(eq(submissions.userId, artist.id));
    expect(left.map((s) => s.id).sort()).toEqual(kept.map((s) => s.id).sort());
    expect(DELETION_TEXTS.stays[0]).toContain('(approved, in creation, completed, published)');
  });

  it('refuses the last admin (409)', async () => {
    const onlyApp = await createTestApp();
    try {
      const admin = await createAdmin(onlyApp.db);
      const cookie = await onlyApp.signIn(admin);
      const res = await onlyApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { origin: TEST_ORIGIN, cookie }, payload: { password: TEST_PASSWORD } });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('last_admin');
    } finally {
      await onlyApp.close();
    }
  });
});

describe('the team: /api/admin/users', () => {
  it('lists, searches and pages users for admins; 403 for artists', async () => {
    const admin = await createAdmin(t.db);
    const adminCookie = await t.signIn(admin);
    const marker = `zq${Date.now()}`;
    const found = await createArtist(t.db, { artistName: `Band ${marker}` });
    const res = await call('GET', `/api/admin/users?q=${marker}`, adminCookie);
    expect(res.statusCode).toBe(200);
    const page = res.json<AdminUsersPage>();
    expect(page.users.map((u) => u.id)).toEqual([found.id]);
    expect(page.total).toBe(1);
    expect(res.body).not.toContain('scrypt$');
    const all = (await call('GET', '/api/admin/users?page=1', adminCookie)).json<AdminUsersPage>();
    expect(all.users.length).toBeLessThanOrEqual(all.pageSize);
    expect(all.total).toBeGreaterThan(5);
    expect((await call('GET', '/api/admin/users?page=0', adminCookie)).statusCode).toBe(400);
    expect((await call('GET', '/api/admin/users?q=%25', adminCookie)).statusCode).toBe(200);
    const artistCookie = await t.signIn(found);
    expect((await call('GET', '/api/admin/users', artistCookie)).statusCode).toBe(403);
  });

  it('counts each account’s own submissions, drafts left out (issue 23: every account said 0)', async () => {
    const admin = await createAdmin(t.db);
    const adminCookie = await t.signIn(admin);
    const marker = `cnt${Date.now()}`;
    const prolific = await createArtist(t.db, { artistName: `Five ${marker}` });
    const quiet = await createArtist(t.db, { artistName: `None ${marker}` });
    for (let i = 0; i < 5; i++) await createSubmissionRow(t.db, prolific);
    await createSubmissionRow(t.db, prolific, { status: 'draft' });
    await createSubmissionRow(t.db, quiet, { status: 'draft' });
    const page = (await call('GET', `/api/admin/users?q=${marker}`, adminCookie)).json<AdminUsersPage>();
    const counts = Object.fromEntries(page.users.map((u) => [u.id, u.submissionCount]));
    expect(counts).toEqual({ [prolific.id]: 5, [quiet.id]: 0 });
    const promoted = (await call('PATCH', `/api/admin/users/${prolific.id}`, adminCookie, { role: 'admin' })).json<AdminUsersPage['users'][number]>();
    expect(promoted.submissionCount).toBe(5);
    // The page also says how many admins there are in all, so the last one's "Remove admin" is disabled.
    const after = (await call('GET', `/api/admin/users?q=${marker}`, adminCookie)).json<AdminUsersPage>();
    expect(after.adminCount).toBe(page.adminCount + 1);
  });

  it('says there is one admin when there is one', async () => {
    const onlyApp = await createTestApp();
    try {
      const admin = await createAdmin(onlyApp.db);
      await createArtist(onlyApp.db);
      const cookie = await onlyApp.signIn(admin);
      const res = await onlyApp.app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie } });
      expect(res.json<AdminUsersPage>().adminCount).toBe(1);
    } finally {
      await onlyApp.close();
    }
  });

  it('promotes and demotes; the new role holds at once; bad role 400, unknown user 404', async () => {
    const admin = await createAdmin(t.db);
    const adminCookie = await t.signIn(admin);
    const artist = await createArtist(t.db);
    const artistCookie = await t.signIn(artist);
    expect((await call('GET', '/api/admin/submissions', artistCookie)).statusCode).toBe(403);
    const promoted = await call('PATCH', `/api/admin/users/${artist.id}`, adminCookie, { role: 'admin' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().role).toBe('admin');
    expect((await call('GET', '/api/admin/submissions', artistCookie)).statusCode).toBe(200);
    expect((await call('PATCH', `/api/admin/users/${artist.id}`, adminCookie, { role: 'user' })).json().role).toBe('user');
    expect((await call('GET', '/api/admin/submissions', artistCookie)).statusCode).toBe(403);
    expect((await call('PATCH', `/api/admin/users/${artist.id}`, adminCookie, { role: 'owner' })).statusCode).toBe(400);
    expect((await call('PATCH', '/api/admin/users/nobody', adminCookie, { role: 'user' })).statusCode).toBe(404);
  });

  it('will not demote the last admin (409), even two admins demoting each other at the same moment', async () => {
    const solo = await createTestApp();
    try {
      const a = await createAdmin(solo.db);
      const b = await createAdmin(solo.db);
      const cookieA = await solo.signIn(a);
      const cookieB = await solo.signIn(b);
      const patch = (cookie: string, id: string) =>
        solo.app.inject({ method: 'PATCH', url: `/api/admin/users/${id}`, headers: { origin: TEST_ORIGIN, cookie }, payload: { role: 'user' } });
      const results = await Promise.all([patch(cookieA, b.id), patch(cookieB, a.id)]);
      // One demotion wins. The other is refused: 409 when its check of the admin count comes
      // after the first one's commit, or 403 when its own admin guard already sees it demoted.
      expect([
        [200, 403],
        [200, 409],
      ]).toContainEqual(results.map((r) => r.statusCode).sort());
      const admins = await solo.db.select().from(users).where(eq(users.role, 'admin'));
      expect(admins).toHaveLength(1);
      const last = admins[0]!;
      const res = await patch(last.id === a.id ? cookieA : cookieB, last.id);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: ACCOUNT_TEXTS.lastAdmin, code: 'last_admin' });
    } finally {
      await solo.close();
    }
  });
});
