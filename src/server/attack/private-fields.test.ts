import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../platform/db/schema';
import { TEAM_CONVERSATION_ID, TEAM_PROFILE } from '@shared/messages';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, sessionCookie, TEST_ORIGIN, type TestApp } from '../test/helpers';
import { listenOnLoopback, openSocket, type TestSocket } from '../test/test-sockets';

/**
 * Issue 22 finding 9: another person's user object carries what the people who see it may know
 * (who they are, how to reach them) and nothing about the state of their account: not whether
 * their address is verified, not the address they are changing to, not how they sign in, not the
 * dates of their account. Every payload that carries someone else — contacts, conversations, a
 * thread, a message (answered and pushed on the socket), a submission's user on the desk — is
 * checked here.
 */
const PRIVATE_FIELDS = [
  'password',
  'googleId',
  'deletedAt',
  'emailVerified',
  'pendingEmail',
  'authProvider',
  'profileSetupComplete',
  'profilePromptDismissedAt',
  'createdAt',
  'updatedAt',
] as const;

let t: TestApp;
let admin: UserRow;
let artist: UserRow;
let artistCookie: string;
let adminCookie: string;
let socket: TestSocket | undefined;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t.db, { emailVerified: true, pendingEmail: 'new-address-of-the-boss@label.example', artistName: 'The Boss' });
  artist = await createArtist(t.db, { emailVerified: false, pendingEmail: 'artist-elsewhere@example.com', instagramHandle: '@artist' });
  [artistCookie, adminCookie] = await Promise.all([sessionCookie(t.app, t.db, artist), sessionCookie(t.app, t.db, admin)]);
});
afterAll(async () => {
  await socket?.close();
  await t?.close();
});

const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });

/** The person as another sees them: who they are, and nothing about their account's state. */
function expectOtherPerson(user: Record<string, unknown> | undefined, who: UserRow) {
  expect(user).toBeDefined();
  expect(user).toMatchObject({ id: who.id, firstName: who.firstName, lastName: who.lastName, artistName: who.artistName, role: who.role });
  for (const field of PRIVATE_FIELDS) expect(user, `${field} of ${who.role}`).not.toHaveProperty(field);
}

describe('another person’s user object carries public fields only', () => {
  it('in what an artist sees of the team: contacts, the sent message, the socket, the thread, conversations and messages', async () => {
    socket = await openSocket(await listenOnLoopback(t.app), { cookie: artistCookie, origin: TEST_ORIGIN });
    await socket.waitFor((e) => e.type === 'ready');

    const contacts = await get('/api/messages/contacts', artistCookie);
    expect(contacts.statusCode).toBe(200);
    expectOtherPerson((contacts.json() as Record<string, unknown>[]).find((c) => c.id === admin.id), admin);

    // The artist writes to the team (CONTRACT §18): no one person is the recipient.
    const sent = await t.call('POST', '/api/messages', artistCookie, { toUserId: admin.id, content: 'Hello team' });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().toUser).toBeNull();
    expectOtherPerson(sent.json().fromUser, artist);
    // The team member who answers is seen by their public fields only.
    const reply = await t.call('POST', '/api/messages', adminCookie, { toUserId: artist.id, content: 'Hello artist' });
    expect(reply.statusCode).toBe(201);

    const pushed = await socket.waitFor<{ type: string; message: { content: string; toUser: Record<string, unknown>; fromUser: Record<string, unknown> } }>(
      (e) => e.type === 'new_message' && (e as unknown as { message: { content: string } }).message.content === 'Hello artist',
    );
    expectOtherPerson(pushed.message.fromUser, admin);
    expectOtherPerson(pushed.message.toUser, artist);

    const thread = await get(`/api/messages/${admin.id}`, artistCookie);
    expect(thread.statusCode).toBe(200);
    expect(thread.json().user).toMatchObject({ id: TEAM_CONVERSATION_ID, email: null });
    expectOtherPerson(thread.json().messages[1].fromUser, admin);

    const conversations = await get('/api/messages/conversations', artistCookie);
    expect(conversations.json().conversations[0].user).toEqual(TEAM_PROFILE);

    const all = await get('/api/messages', artistCookie);
    expectOtherPerson(all.json()[1].fromUser, admin);
  });

  it('in what the team sees of an artist: the thread and a submission’s user', async () => {
    const submission = await createSubmissionRow(t.db, artist);
    const one = await get(`/api/admin/submissions/${submission.id}`, adminCookie);
    expect(one.statusCode).toBe(200);
    expectOtherPerson(one.json().user, artist);
    // The desk still has what it shows: the artist's address and social links.
    expect(one.json().user).toMatchObject({ email: artist.email, instagramHandle: '@artist' });

    const list = await get('/api/admin/submissions', adminCookie);
    expectOtherPerson((list.json().submissions as { id: string; user: Record<string, unknown> }[]).find((s) => s.id === submission.id)?.user, artist);

    const thread = await get(`/api/messages/${artist.id}`, adminCookie);
    expectOtherPerson(thread.json().user, artist);
  });

  it('while the user’s own view keeps their own account state', async () => {
    const own = await get('/api/user', artistCookie);
    expect(own.json()).toMatchObject({ id: artist.id, emailVerified: false, pendingEmail: 'artist-elsewhere@example.com' });
  });
});

describe('a webhook endpoint’s signing secret (CONTRACT §28)', () => {
  it('is answered once, by the POST that made it, and in no listing, single read or delivery list afterwards', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/admin/webhooks',
      headers: { cookie: adminCookie, origin: TEST_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'https://93.184.215.14/hooks/hub', events: ['payout.paid'] }),
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id, secret } = made.json() as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    for (const url of ['/api/admin/webhooks', `/api/admin/webhooks/${id}`, `/api/admin/webhooks/${id}/deliveries`]) {
      const res = await get(url, adminCookie);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain(secret);
      expect(res.body, url).not.toMatch(/"secret"/);
    }
    // Removed at once: nothing is ever queued for it, so this test sends nothing over the network.
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/admin/webhooks/${id}`, headers: { cookie: adminCookie, origin: TEST_ORIGIN } });
    expect(removed.statusCode).toBe(204);
  });
});
