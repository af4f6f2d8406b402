import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_CONVERSATION_ID, TEAM_NAME } from '@shared/messages';
import { DEFAULT_NOTIFICATION_SETTINGS, OUTBOX_PAGE_SIZE, type OutboxPage } from '@shared/notifications';
import { displayName } from '@shared/users';
import { emailVerificationTokens, outboxEmails, submissionHistory, submissions, type UserRow } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { HIDDEN } from '../../platform/email/outbox';
import { createUnsubscribeToken } from '../../platform/email/unsubscribe-token';
import { cookieFrom, createAdmin, createArtist, createSubmissionRow, createTestApp, linkSubmission, outboxRowsOf, sessionCookie, TEST_ORIGIN, type TestApp } from '../../test/helpers';
import { headerOf, sentTo, type TestSmtpServer } from '../../test/smtp-test-server';

let t: TestApp;
let smtp: TestSmtpServer;
let admin: UserRow;
let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp({ MESSAGE_EMAIL_DELAY_S: '1' }, { smtp: true });
  smtp = t.smtp;
  admin = await createAdmin(t.db);
  adminCookie = await t.signIn(admin);
});
afterAll(() => t?.close());

const request: TestApp['call'] = (...args) => t.call(...args);
const outboxRows = (userId: string) => outboxRowsOf(t.db, userId);

describe('emails over SMTP', () => {
  it('sends "submission received" with a text and an HTML part, a link to the submission and one-click unsubscribe', async () => {
    const artist = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    const res = await request('POST', '/api/submissions', cookie, linkSubmission({ artistName: 'Nova', songTitle: 'Blue Hour' }));
    expect(res.statusCode).toBe(201);
    const id = res.json<{ id: string }>().id;

    const email = await smtp.waitFor(sentTo(artist.email));
    expect(email.mail.subject).toBe('We received "Blue Hour"');
    await expect.poll(async () => (await outboxRows(artist.id))[0]?.status).toBe('sent');
    expect(email.mail.text).toContain('Submission Hub');
    expect(email.mail.text).toContain(`${TEST_ORIGIN}/dashboard?submission=${id}`);
    expect(email.mail.html).toContain(`${TEST_ORIGIN}/dashboard?submission=${id}`);
    expect(headerOf(email, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(headerOf(email, 'list-unsubscribe')).toMatch(/^<http:\/\/localhost:5000\/api\/unsubscribe\?token=[\w-]+\.[\w-]+>$/);

    const [row] = await outboxRows(artist.id);
    expect(row!.status).toBe('sent');
    expect(email.mail.messageId).toBe(`<${row!.id}@localhost>`);
    expect(row!.textBody).toContain('Blue Hour');
  });

  it('sends "status changed" quoting the review, and nothing when the artist turned those off', async () => {
    const artist = await createArtist(t.db);
    const submission = await createSubmissionRow(t.db, artist, { songTitle: 'Glass' });
    const res = await request('PATCH', `/api/admin/submissions/${submission.id}/status`, adminCookie, {
      status: 'approved',
      review: 'Lovely chorus — we want it.',
    });
    expect(res.statusCode).toBe(200);
    const email = await smtp.waitFor(sentTo(artist.email));
    expect(email.mail.subject).toBe('"Glass" is now Approved');
    expect(email.mail.text).toContain('Lovely chorus — we want it.');
    expect(email.mail.html).toContain('Lovely chorus — we want it.');

    const artistCookie = await t.signIn(artist);
    expect((await request('PUT', '/api/notification-settings', artistCookie, { statusChanges: false })).statusCode).toBe(200);
    await request('PATCH', `/api/admin/submissions/${submission.id}/status`, adminCookie, { status: 'in_creation' });
    await expect.poll(async () => (await outboxRows(artist.id)).map((r) => r.status).sort(), { timeout: 10_000 }).toEqual([
      'sent',
      'skipped',
    ]);
    expect(smtp.received.filter(sentTo(artist.email))).toHaveLength(1);
  });

  it('emails several unread messages as one, after the delay; a message read in time sends nothing', async () => {
    const artist = await createArtist(t.db, { artistName: 'Mira' });
    const artistCookie = await t.signIn(artist);
    // Two admins write: for the artist it is one conversation, with the label team (CONTRACT §18).
    const colleague = await createAdmin(t.db, { firstName: 'Jonas', lastName: 'Reed' });
    const colleagueCookie = await t.signIn(colleague);
    for (const [cookie, content] of [
      [adminCookie, 'First note'],
      [colleagueCookie, 'Second note'],
    ] as const) {
      expect((await request('POST', '/api/messages', cookie, { toUserId: artist.id, content })).statusCode).toBe(201);
    }
    const email = await smtp.waitFor(sentTo(artist.email));
    expect(email.mail.subject).toBe('New message from the label team');
    expect(email.mail.text).toContain(`${TEAM_NAME} wrote to you`);
    expect(email.mail.text).toContain(`${TEAM_NAME} (2 messages):`);
    // The quoted (latest) message keeps its signer; the first admin names nothing.
    expect(email.mail.text).toContain('Second note\n— Jonas Reed');
    expect(email.mail.text).not.toContain(displayName(admin));
    const [row] = await outboxRows(artist.id);
    expect(row!.templateData.conversations).toEqual([
      { fromUserId: TEAM_CONVERSATION_ID, fromName: TEAM_NAME, count: 2, latest: 'Second note', signedBy: 'Jonas Reed' },
    ]);
    // The link opens the artist's conversation with the label team.
    expect(email.mail.text).toContain(`/messages?with=${TEAM_CONVERSATION_ID}`);
    expect(await outboxRows(artist.id)).toHaveLength(1);

    // The artist answers; the admin reads it before the delay is over: no email to the admin.
    const adminEmailsBefore = smtp.received.filter(sentTo(admin.email)).length;
    expect((await request('POST', '/api/messages', artistCookie, { toUserId: admin.id, content: 'Thanks!' })).statusCode).toBe(201);
    expect((await request('POST', `/api/messages/${artist.id}/read`, adminCookie)).statusCode).toBe(200);
    await expect
      .poll(async () => (await outboxRows(admin.id)).filter((r) => r.kind === 'unread_messages').map((r) => r.status), {
        timeout: 10_000,
      })
      .toEqual(['skipped']);
    expect(smtp.received.filter(sentTo(admin.email))).toHaveLength(adminEmailsBefore);
  });

  it('emails the team an artist message left unread, one conversation per artist', async () => {
    const artist = await createArtist(t.db, { artistName: 'Okra' });
    const artistCookie = await t.signIn(artist);
    const team = await createAdmin(t.db);
    await request('POST', '/api/messages', artistCookie, { toUserId: team.id, content: 'Any news on my track?' });
    const email = await smtp.waitFor(sentTo(team.email));
    expect(email.mail.subject).toBe('New message from Okra');
    expect(email.mail.text).toContain('Any news on my track?');
    expect(email.mail.text).not.toContain('— ');
    expect(email.mail.text).toContain(`/messages?with=${artist.id}`);
    const row = (await outboxRows(team.id)).find((r) => r.kind === 'unread_messages');
    expect(row!.templateData.conversations).toEqual([
      { fromUserId: artist.id, fromName: 'Okra', count: 1, latest: 'Any news on my track?' },
    ]);
  });

  it('emails every admin an artist message the team left unread, and nobody once one admin has read it (CONTRACT §18)', async () => {
    const artist = await createArtist(t.db, { artistName: 'Tessa' });
    const artistCookie = await t.signIn(artist);
    const [one, two] = [await createAdmin(t.db), await createAdmin(t.db)];
    expect((await request('POST', '/api/messages', artistCookie, { content: 'To the whole team' })).statusCode).toBe(201);
    for (const admin of [one, two]) expect((await smtp.waitFor(sentTo(admin.email))).mail.text).toContain('To the whole team');

    // The next one is read by the first admin in time: neither is emailed.
    const before = smtp.received.filter((m) => [one.email, two.email].some((e) => sentTo(e)(m))).length;
    expect((await request('POST', '/api/messages', artistCookie, { content: 'Read in time' })).statusCode).toBe(201);
    // Both of the artist's messages were unread in the app; the email does not read them.
    expect((await request('POST', `/api/messages/${artist.id}/read`, await t.signIn(one))).json()).toEqual({ updated: 2 });
    for (const admin of [one, two]) {
      await expect
        .poll(async () => (await outboxRows(admin.id)).filter((r) => r.kind === 'unread_messages').map((r) => r.status).sort(), { timeout: 10_000 })
        .toEqual(['sent', 'skipped']);
    }
    expect(smtp.received.filter((m) => [one.email, two.email].some((e) => sentTo(e)(m)))).toHaveLength(before);
  });

  it('retries a refused email with backoff and delivers it exactly once', async () => {
    const artist = await createArtist(t.db);
    smtp.refuse = true;
    try {
      await request('PATCH', `/api/admin/submissions/${(await createSubmissionRow(t.db, artist)).id}/status`, adminCookie, {
        status: 'under_review',
      });
      await expect.poll(async () => (await outboxRows(artist.id))[0]?.attempts ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      const [row] = await outboxRows(artist.id);
      expect(row!.status).toBe('pending');
      expect(row!.lastError).toMatch(/451|Try again later/);
    } finally {
      smtp.refuse = false;
    }
    // pg-boss retries after its 10 s backoff.
    await smtp.waitFor(sentTo(artist.email), 30_000);
    await expect.poll(async () => (await outboxRows(artist.id))[0]?.status, { timeout: 5000 }).toBe('sent');
    expect(smtp.received.filter(sentTo(artist.email))).toHaveLength(1);
  }, 45_000);

  it('keeps what a failed attempt at "unread messages" said, and gives a message written meanwhile an email of its own', async () => {
    const artist = await createArtist(t.db);
    smtp.refuse = true;
    try {
      expect((await request('POST', '/api/messages', adminCookie, { toUserId: artist.id, content: 'Before the outage' })).statusCode).toBe(201);
      // The first attempt gathers, keeps what it gathered, and is refused.
      await expect.poll(async () => (await outboxRows(artist.id))[0]?.attempts ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      const [first] = await outboxRows(artist.id);
      expect(first!.templateData).toMatchObject({ total: 1, preparedAt: expect.any(String) });
      expect(first!.dedupeKey).toBeNull();
      expect((await request('POST', '/api/messages', adminCookie, { toUserId: artist.id, content: 'During the outage' })).statusCode).toBe(201);
      await expect.poll(async () => (await outboxRows(artist.id)).length, { timeout: 5000 }).toBe(2);
    } finally {
      smtp.refuse = false;
    }
    // The retry sends exactly the first content; the second email reports only the newer message.
    await expect
      .poll(async () => (await outboxRows(artist.id)).map((r) => r.status), { timeout: 40_000 })
      .toEqual(['sent', 'sent']);
    const emails = smtp.received.filter(sentTo(artist.email)).map((e) => e.mail.text ?? '');
    expect(emails).toHaveLength(2);
    expect(emails.filter((text) => text.includes('Before the outage'))).toHaveLength(1);
    expect(emails.filter((text) => text.includes('During the outage'))).toHaveLength(1);
    expect(emails.some((text) => text.includes('messages)'))).toBe(false);
  }, 60_000);

  it('sends the team a daily digest of new submissions', async () => {
    const artist = await createArtist(t.db);
    await createSubmissionRow(t.db, artist, { songTitle: 'Digest Song', artistName: 'Digest Artist' });
    await createSubmissionRow(t.db, artist, { songTitle: 'Unpaid Song', pricingTier: 'basic' });
    // Sent three days ago, paid today: it entered the team's queue today. Paid on the day it was
    // sent, three days ago: it was new then, not now.
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
    const paidToday = await createSubmissionRow(t.db, artist, { songTitle: 'Paid Late Song', pricingTier: 'basic', createdAt: threeDaysAgo });
    const paidLongAgo = await createSubmissionRow(t.db, artist, { songTitle: 'Old Paid Song', pricingTier: 'basic', createdAt: threeDaysAgo });
    for (const [sub, at] of [[paidToday, new Date()], [paidLongAgo, threeDaysAgo]] as const) {
      await t.db.update(submissions).set({ status: 'pending', paymentStatus: 'succeeded' }).where(eq(submissions.id, sub.id));
      await t.db.insert(submissionHistory).values({ id: newId(), submissionId: sub.id, field: 'status', fromValue: 'payment_pending', toValue: 'pending', createdAt: at });
    }
    await t.app.jobs.run('notifications.admin-digest');
    const email = await smtp.waitFor((e) => sentTo(admin.email)(e) && (e.mail.subject ?? '').startsWith('Daily digest'));
    expect(email.mail.text).toContain('"Digest Song" by Digest Artist');
    expect(email.mail.text).not.toContain('Unpaid Song');
    expect(email.mail.text).toContain('"Paid Late Song"');
    expect(email.mail.text).not.toContain('Old Paid Song');
    expect(email.mail.text).toMatch(/New submissions \(\d+\)/);
    // Nothing here is past its delivery date, so the Overdue section is left out.
    expect(email.mail.text).not.toContain('Overdue');
  });
});

describe('email verification', () => {
  it('registration sends a link that verifies the address once; the outbox keeps it masked', async () => {
    const address = `verify-${Date.now()}@example.com`;
    const res = await request('POST', '/api/register', undefined, {
      firstName: 'Vera',
      lastName: 'Fy',
      email: address,
      password: 'correct-horse-42',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ emailVerified: boolean }>().emailVerified).toBe(false);
    const cookie = cookieFrom(res);

    const email = await smtp.waitFor(sentTo(address));
    expect(email.mail.subject).toBe('Confirm your email address for Submission Hub');
    await expect.poll(async () => (await t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, address)))[0]?.status).toBe('sent');
    const link = /http:\/\/localhost:5000\/api\/verify-email\?token=([\w-]+)/.exec(email.mail.text ?? '');
    expect(link).not.toBeNull();
    const [row] = await t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, address));
    expect(row!.textBody).toContain(HIDDEN);
    expect(row!.textBody).not.toContain(link![1]);
    expect(JSON.stringify(row!.templateData)).not.toContain(link![1]);

    const opened = await t.app.inject({ url: `/api/verify-email?token=${link![1]}` });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/dashboard?verification=done');
    expect((await request('GET', '/api/user', cookie)).json<{ emailVerified: boolean }>().emailVerified).toBe(true);

    const again = await t.app.inject({ url: `/api/verify-email?token=${link![1]}` });
    expect(again.headers.location).toBe('/dashboard?verification=invalid');
    // Verified: resending answers 202 and sends nothing more.
    expect((await request('POST', '/api/verify-email/resend', cookie)).statusCode).toBe(202);
    expect((await t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, address))).length).toBe(1);
  });

  it('refuses unknown and malformed tokens', async () => {
    for (const token of ['nope', '', 'x'.repeat(5000)]) {
      const res = await t.app.inject({ url: `/api/verify-email?token=${token}` });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/dashboard?verification=invalid');
    }
    // A NUL is refused before any route runs, like everywhere else (CONTRACT §9).
    expect((await t.app.inject({ url: '/api/verify-email?token=%00' })).statusCode).toBe(400);
  });

  it('refuses a real link once it has expired, and leaves the address unconfirmed', async () => {
    const artist = await createArtist(t.db, { emailVerified: false });
    const cookie = await t.signIn(artist);
    expect((await request('POST', '/api/verify-email/resend', cookie)).statusCode).toBe(202);
    const email = await smtp.waitFor(sentTo(artist.email));
    const token = /\/api\/verify-email\?token=([\w-]+)/.exec(email.mail.text ?? '')![1]!;
    await t.db
      .update(emailVerificationTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(emailVerificationTokens.userId, artist.id));
    const opened = await t.app.inject({ url: `/api/verify-email?token=${token}` });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/dashboard?verification=invalid');
    expect((await request('GET', '/api/user', cookie)).json<{ emailVerified: boolean }>().emailVerified).toBe(false);
  });

  it('resend needs a session and sends a new link to an unverified user', async () => {
    expect((await request('POST', '/api/verify-email/resend')).statusCode).toBe(401);
    const artist = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    expect((await request('POST', '/api/verify-email/resend', cookie)).statusCode).toBe(202);
    const email = await smtp.waitFor(sentTo(artist.email));
    expect(email.mail.text).toMatch(/\/api\/verify-email\?token=/);
  });
});

describe('notification settings and unsubscribe', () => {
  it('answers the defaults, changes them, and refuses what is not a boolean', async () => {
    expect((await request('GET', '/api/notification-settings')).statusCode).toBe(401);
    expect((await request('PUT', '/api/notification-settings', undefined, { messages: false })).statusCode).toBe(401);
    const artist = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    expect((await request('GET', '/api/notification-settings', cookie)).json()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    for (const bad of [{ messages: 'no' }, { digest: 0 }, { statusChanges: null }, { deliveries: 'true' }]) {
      const res = await request('PUT', '/api/notification-settings', cookie, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/must be true or false/);
    }
    const res = await request('PUT', '/api/notification-settings', cookie, { messages: false, digest: false, userId: admin.id });
    expect(res.json()).toEqual({ statusChanges: true, messages: false, deliveries: true, digest: false });
    // Another user's settings are untouched by the unknown field.
    expect((await request('GET', '/api/notification-settings', adminCookie)).json()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('turns one kind off with the one-click POST of RFC 8058; replaying it is harmless', async () => {
    const artist = await createArtist(t.db);
    const token = createUnsubscribeToken(t.config.sessionSecret, artist.id, 'messages');
    const oneClick = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/unsubscribe?token=${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
    const res = await oneClick();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ preference: 'messages' });
    expect((await oneClick()).statusCode).toBe(200);
    const cookie = await t.signIn(artist);
    expect((await request('GET', '/api/notification-settings', cookie)).json()).toEqual({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      messages: false,
    });
  });

  it('refuses a forged, altered or foreign token', async () => {
    const artist = await createArtist(t.db);
    const other = await createArtist(t.db);
    const token = createUnsubscribeToken(t.config.sessionSecret, artist.id, 'statusChanges');
    const [, mac] = token.split('.');
    const forgedPayload = Buffer.from(`${other.id}:statusChanges`).toString('base64url');
    const bad = [
      `${forgedPayload}.${mac}`,
      createUnsubscribeToken('another-secret-another-secret-0000', artist.id, 'statusChanges'),
      `${Buffer.from(`${artist.id}:role`).toString('base64url')}.${mac}`,
      `${token}.extra`,
      'garbage',
      '',
    ];
    for (const value of bad) {
      const res = await t.app.inject({ method: 'POST', url: `/api/unsubscribe?token=${encodeURIComponent(value)}` });
      expect(res.statusCode).toBe(400);
    }
    const cookie = await t.signIn(other);
    expect((await request('GET', '/api/notification-settings', cookie)).json()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });
});

describe('one-click unsubscribe for each kind', () => {
  type Case = { kind: string; preference: keyof typeof DEFAULT_NOTIFICATION_SETTINGS; admin?: boolean; cause(user: UserRow): Promise<void> };
  const queued = (
    kind: 'submission_received' | 'status_changed' | 'changes_requested' | 'admin_digest' | 'deliverables_ready' | 'video_published' | 'viral_hit_recorded',
    data: object,
  ) => (user: UserRow) =>
    t.db.transaction((tx) => t.app.outbox.queue(tx, { kind, userId: user.id, data: data as never }));
  const cases: Case[] = [
    {
      kind: 'submission_received',
      preference: 'statusChanges',
      cause: queued('submission_received', { submissionId: 'u1', songTitle: 'Unsub One', artistName: 'A', tierName: 'Free', awaitingPayment: false }),
    },
    {
      kind: 'status_changed',
      preference: 'statusChanges',
      cause: queued('status_changed', { submissionId: 'u2', songTitle: 'Unsub Two', statusLabel: 'Approved', review: 'Yes.' }),
    },
    {
      kind: 'unread_messages',
      preference: 'messages',
      cause: async (user) => {
        expect((await request('POST', '/api/messages', adminCookie, { toUserId: user.id, content: 'Still there?' })).statusCode).toBe(201);
      },
    },
    // Deliveries covers what comes after approval: the files, the publication, a viral hit.
    {
      kind: 'deliverables_ready',
      preference: 'deliveries',
      cause: queued('deliverables_ready', { submissionId: 'u4', songTitle: 'Unsub Four', fileCount: 2, note: null }),
    },
    {
      kind: 'video_published',
      preference: 'deliveries',
      cause: queued('video_published', {
        submissionId: 'u5',
        songTitle: 'Unsub Five',
        videoUrl: 'https://www.youtube.com/watch?v=unsub5',
        publishedAt: '2026-11-01T12:00:00.000Z',
        checkAt: '2026-11-15T12:00:00.000Z',
        viewsNeeded: 15_500,
      }),
    },
    {
      kind: 'changes_requested',
      preference: 'statusChanges',
      cause: queued('changes_requested', { submissionId: 'u7', songTitle: 'Unsub Seven', review: 'Bring the vocals up.', versionsLeft: 3 }),
    },
    {
      kind: 'viral_hit_recorded',
      preference: 'deliveries',
      cause: queued('viral_hit_recorded', { submissionId: 'u6', songTitle: 'Unsub Six', views: 20_000, subscriberCount: 31_000, viralHits: 1, hitsNeeded: 3 }),
    },
    {
      kind: 'admin_digest',
      preference: 'digest',
      admin: true,
      cause: queued('admin_digest', {
        date: '2026-11-23',
        sections: [{ title: 'New submissions', total: 1, items: [{ submissionId: 'u3', songTitle: 'Unsub Three', artistName: 'B', detail: 'free plan' }] }],
      }),
    },
  ];

  for (const c of cases) {
    it(`"${c.kind}" carries RFC 8058 headers whose one-click POST turns "${c.preference}" off, and the next one is not sent`, async () => {
      const user = c.admin ? await createAdmin(t.db) : await createArtist(t.db);
      await c.cause(user);
      const email = await smtp.waitFor(sentTo(user.email));
      expect(headerOf(email, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      const target = new URL(/^<(.+)>$/.exec(headerOf(email, 'list-unsubscribe'))![1]!);
      expect(target.pathname).toBe('/api/unsubscribe');
      // A mail client that opens the URL in a browser: the page that confirms with one click, nothing changed yet.
      const opened = await t.app.inject({ method: 'GET', url: target.pathname + target.search });
      expect(opened.statusCode).toBe(303);
      expect(opened.headers.location).toBe(`/unsubscribe?token=${encodeURIComponent(target.searchParams.get('token')!)}`);
      const signedIn = await t.signIn(user);
      expect((await request('GET', '/api/notification-settings', signedIn)).json()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
      // What a mail client does for "unsubscribe": one POST, no cookie, no Origin.
      const res = await t.app.inject({
        method: 'POST',
        url: target.pathname + target.search,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ preference: c.preference });
      const cookie = await t.signIn(user);
      expect((await request('GET', '/api/notification-settings', cookie)).json()).toEqual({ ...DEFAULT_NOTIFICATION_SETTINGS, [c.preference]: false });

      await c.cause(user);
      await expect
        .poll(async () => (await outboxRows(user.id)).filter((r) => r.kind === c.kind).map((r) => r.status).sort(), { timeout: 10_000 })
        .toEqual(['sent', 'skipped']);
      expect(smtp.received.filter(sentTo(user.email))).toHaveLength(1);
    }, 30_000);
  }
});

describe('the Outbox page', () => {
  it('is for admins only', async () => {
    expect((await request('GET', '/api/admin/outbox')).statusCode).toBe(401);
    const artist = await createArtist(t.db);
    expect((await request('GET', '/api/admin/outbox', await sessionCookie(t.app, t.db, artist))).statusCode).toBe(403);
    expect((await request('GET', '/api/admin/outbox?status=bogus', adminCookie)).statusCode).toBe(400);
    expect((await request('GET', '/api/admin/outbox?pageSize=100000', adminCookie)).statusCode).toBe(400);
    const page = (await request('GET', '/api/admin/outbox?status=sent', adminCookie)).json<OutboxPage>();
    expect(page.smtpConfigured).toBe(true);
    expect(page.emails.length).toBeGreaterThan(0);
    expect(page.emails.every((e) => e.status === 'sent')).toBe(true);
  });

  it('searches by recipient or subject, any case, in pages of OUTBOX_PAGE_SIZE (issue 36)', async () => {
    const artist = await createArtist(t.db, { email: `Paging-${Date.now()}@Example.com` });
    const at = Date.now() - 60_000;
    await t.db.insert(outboxEmails).values(
      Array.from({ length: OUTBOX_PAGE_SIZE + 5 }, (_, i) => ({
        id: `paging-${artist.id}-${i}`,
        kind: 'status_change',
        userId: artist.id,
        toAddress: artist.email!,
        subject: i === 0 ? 'Spring sale: 100% off' : `Paging ${i}`,
        templateData: {},
        status: 'sent' as const,
        createdAt: new Date(at + i),
      })),
    );
    const get = async (query: string) => {
      const res = await request('GET', `/api/admin/outbox?${query}`, adminCookie);
      expect(res.statusCode).toBe(200);
      return res.json<OutboxPage>();
    };
    const first = await get(`q=${encodeURIComponent(artist.email!.toUpperCase())}`);
    expect(first).toMatchObject({ total: OUTBOX_PAGE_SIZE + 5, page: 1, pageSize: OUTBOX_PAGE_SIZE });
    expect(first.emails).toHaveLength(OUTBOX_PAGE_SIZE);
    expect(first.emails[0]!.subject).toBe(`Paging ${OUTBOX_PAGE_SIZE + 4}`);
    const second = await get(`q=${encodeURIComponent(artist.email!)}&page=2`);
    expect(second.emails.map((e) => e.subject)).toEqual(['Paging 4', 'Paging 3', 'Paging 2', 'Paging 1', 'Spring sale: 100% off']);
    // A % or _ typed in the box is a letter, not a wildcard.
    expect((await get(`q=${encodeURIComponent('100%')}`)).emails.map((e) => e.subject)).toEqual(['Spring sale: 100% off']);
    expect((await get(`q=${encodeURIComponent('paging 1')}&status=failed`)).total).toBe(0);
    expect((await request('GET', `/api/admin/outbox?q=${'x'.repeat(201)}`, adminCookie)).statusCode).toBe(400);
  });
});

describe('without SMTP_URL', () => {
  it('keeps every email in the outbox, logs it and sends nothing', async () => {
    const local = await createTestApp();
    try {
      const artist = await createArtist(local.db);
      const team = await createAdmin(local.db);
      await createSubmissionRow(local.db, artist);
      const [submission] = await local.db.select().from(submissions).where(eq(submissions.userId, artist.id));
      const cookie = await local.signIn(team);
      await local.app.inject({
        method: 'PATCH',
        url: `/api/admin/submissions/${submission!.id}/status`,
        headers: { cookie, origin: TEST_ORIGIN },
        payload: { status: 'approved' },
      });
      await expect
        .poll(async () => (await local.db.select().from(outboxEmails).where(eq(outboxEmails.userId, artist.id)))[0]?.status, {
          timeout: 10_000,
        })
        .toBe('logged');
      const page = (
        await local.app.inject({ url: '/api/admin/outbox', headers: { cookie } })
      ).json<OutboxPage>();
      expect(page.smtpConfigured).toBe(false);
      expect(page.emails[0]!.subject).toBe('"Night Drive" is now Approved');
      expect(page.emails[0]!.textBody).toContain('Approved');
    } finally {
      await local.close();
    }
  });
});

describe('the job queue', () => {
  it('keeps the periodic work as schedules in the database, once for every instance', async () => {
    const rows = await t.db.execute<{ name: string; cron: string }>(sql`select name, cron from pgboss.schedule order by name`);
    const names = (rows as unknown as { rows: { name: string }[] }).rows.map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'maintenance.prune-sessions',
        'maintenance.prune-rate-limit-counters',
        'maintenance.remove-unattached-uploads',
        'notifications.admin-digest',
      ]),
    );
  });

  it('writes nothing when the change that causes an email is rolled back', async () => {
    const artist = await createArtist(t.db);
    await expect(
      t.db.transaction(async (tx) => {
        await t.app.outbox.queue(tx, {
          kind: 'status_changed',
          userId: artist.id,
          data: { submissionId: 'x', songTitle: 'Never', statusLabel: 'Approved', review: null },
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await outboxRows(artist.id)).toHaveLength(0);
    const jobs = await t.db.execute(sql`select count(*)::int as n from pgboss.job where data->>'outboxId' not in (select id from outbox_emails)`);
    expect((jobs as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });
});

