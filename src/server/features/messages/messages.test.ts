import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { TEST_ORIGIN, createAdmin, createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';
import type { Message as MessageView, ThreadPage } from '@shared/messages';
import { MESSAGE_TEXTS, TEAM_CONVERSATION_ID } from '@shared/messages';
import { errorText } from '@shared/errors';

let t: TestApp;
let admin: UserRow;
let artist: UserRow;
let otherArtist: UserRow;
let cookies: Map<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t.db, { firstName: 'Lena', lastName: 'Label' });
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  otherArtist = await createArtist(t.db, { artistName: 'Someone Else' });
  cookies = new Map();
  for (const user of [admin, artist, otherArtist]) cookies.set(user.id, await t.signIn(user));
});
afterAll(() => t.close());

const as = (user: UserRow) => ({ cookie: cookies.get(user.id)! });

const send = (from: UserRow, body: Record<string, unknown>) => t.call('POST', '/api/messages', as(from).cookie, body);
const get = (user: UserRow, url: string) => t.call('GET', url, as(user).cookie);

const createSubmission = async (owner: UserRow) => (await createSubmissionRow(t.db, owner)).id;

describe('sending', () => {
  it('lets an admin write to an artist, trimmed, with both users public fields', async () => {
    const res = await send(admin, { toUserId: artist.id, content: '  Loved the demo!  \n' });
    expect(res.statusCode).toBe(201);
    const message = res.json<MessageView>();
    expect(message).toMatchObject({
      fromUserId: admin.id,
      toUserId: artist.id,
      content: 'Loved the demo!',
      isRead: false,
      submissionId: null,
    });
    expect(message.fromUser).toMatchObject({ id: admin.id, firstName: 'Lena', role: 'admin' });
    expect(message.toUser).toMatchObject({ id: artist.id, artistName: 'Nora Vex' });
    for (const user of [message.fromUser, message.toUser]) {
      expect(user).not.toHaveProperty('password');
      expect(user).not.toHaveProperty('googleId');
    }
  });

  it('lets an artist answer an admin', async () => {
    const res = await send(artist, { toUserId: admin.id, content: 'Thank you!' });
    expect(res.statusCode).toBe(201);
    expect(res.json<MessageView>().fromUser.id).toBe(artist.id);
  });

  it('refuses artist-to-artist, the same way for an unknown recipient', async () => {
    const toArtist = await send(artist, { toUserId: otherArtist.id, content: 'hi' });
    expect(toArtist.statusCode).toBe(403);
    expect(toArtist.json()).toEqual({ message: errorText('artists_message_team_only'), code: 'artists_message_team_only' });
    const toNobody = await send(artist, { toUserId: newId(), content: 'hi' });
    expect(toNobody.statusCode).toBe(403);
  });

  it('answers 404 to an admin writing to nobody, 400 to oneself', async () => {
    expect((await send(admin, { toUserId: newId(), content: 'hi' })).statusCode).toBe(404);
    expect((await send(admin, { toUserId: admin.id, content: 'hi' })).statusCode).toBe(400);
  });

  it('refuses blank, missing and over-long content', async () => {
    for (const content of ['', '   \n\t ', undefined]) {
      const res = await send(admin, { toUserId: artist.id, content });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: MESSAGE_TEXTS.empty, errors: [{ path: 'content' }] });
    }
    expect((await send(admin, { toUserId: artist.id, content: 'x'.repeat(5001) })).statusCode).toBe(400);
    const atLimit = await send(admin, { toUserId: artist.id, content: ` ${'x'.repeat(5000)} ` });
    expect(atLimit.statusCode).toBe(201);
  });

  it('links a submission only when it is the artist of the conversation', async () => {
    const own = await createSubmission(artist);
    const foreign = await createSubmission(otherArtist);

    const byAdmin = await send(admin, { toUserId: artist.id, content: 'About your track', submissionId: own });
    expect(byAdmin.statusCode).toBe(201);
    expect(byAdmin.json<MessageView>().submissionId).toBe(own);
    const byArtist = await send(artist, { toUserId: admin.id, content: 'About my track', submissionId: own });
    expect(byArtist.statusCode).toBe(201);

    expect((await send(admin, { toUserId: artist.id, content: 'x', submissionId: foreign })).statusCode).toBe(404);
    expect((await send(artist, { toUserId: admin.id, content: 'x', submissionId: foreign })).statusCode).toBe(404);
    expect((await send(artist, { toUserId: admin.id, content: 'x', submissionId: newId() })).statusCode).toBe(404);
  });

  it('needs a session and a same-origin request', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/messages', payload: { toUserId: admin.id, content: 'x' } });
    expect(anonymous.statusCode).toBe(401);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: { ...as(admin), origin: 'https://evil.example' },
      payload: { toUserId: artist.id, content: 'x' },
    });
    expect(crossSite.statusCode).toBe(403);
  });
});

describe('reading', () => {
  it('lists the caller’s messages oldest first, and nothing of others', async () => {
    const res = await get(artist, '/api/messages');
    expect(res.statusCode).toBe(200);
    const list = res.json<MessageView[]>();
    expect(list.length).toBeGreaterThan(2);
    expect(list.every((m) => m.fromUserId === artist.id || m.toUserId === artist.id)).toBe(true);
    const times = list.map((m) => Date.parse(m.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // A third user sees nothing of the conversation, through any route.
    expect((await get(otherArtist, '/api/messages')).json()).toEqual([]);
    expect((await get(otherArtist, `/api/messages/${artist.id}`)).statusCode).toBe(404);
    const withAdmin = await get(otherArtist, `/api/messages/${admin.id}`);
    expect(withAdmin.statusCode).toBe(200);
    expect(withAdmin.json<ThreadPage>().messages).toEqual([]);
    expect((await get(otherArtist, '/api/messages/unread-count')).json()).toEqual({ count: 0 });
  });

  it('answers a thread with the other user and pages it with ?before=', async () => {
    const lone = await createArtist(t.db, { artistName: 'Pager' });
    const loneCookie = await t.signIn(lone);
    cookies.set(lone.id, loneCookie);
    for (let i = 0; i < 5; i++) expect((await send(admin, { toUserId: lone.id, content: `m${i}` })).statusCode).toBe(201);

    const full = (await get(lone, `/api/messages/${admin.id}`)).json<ThreadPage>();
    // The artist's conversation is with the label team, whichever admin's id names it.
    expect(full.user).toMatchObject({ id: TEAM_CONVERSATION_ID, role: 'admin' });
    expect(full.user).not.toHaveProperty('password');
    expect(full.messages.map((m) => m.content)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(full.hasMore).toBe(false);

    const latest = (await get(lone, `/api/messages/${admin.id}?limit=2`)).json<ThreadPage>();
    expect(latest.messages.map((m) => m.content)).toEqual(['m3', 'm4']);
    expect(latest.hasMore).toBe(true);
    const older = (await get(lone, `/api/messages/${admin.id}?limit=2&before=${latest.messages[0]!.id}`)).json<ThreadPage>();
    expect(older.messages.map((m) => m.content)).toEqual(['m1', 'm2']);
    const oldest = (await get(lone, `/api/messages/${admin.id}?limit=2&before=${older.messages[0]!.id}`)).json<ThreadPage>();
    expect(oldest.messages.map((m) => m.content)).toEqual(['m0']);
    expect(oldest.hasMore).toBe(false);

    // A cursor from another conversation yields nothing.
    const foreignId = (await get(artist, '/api/messages')).json<MessageView[]>()[0]!.id;
    expect((await get(lone, `/api/messages/${admin.id}?before=${foreignId}`)).json<ThreadPage>().messages).toEqual([]);
    expect((await get(lone, `/api/messages/${admin.id}?limit=0`)).statusCode).toBe(400);
    expect((await get(admin, `/api/messages/${newId()}`)).statusCode).toBe(404);
  });

  it('marks a thread read, which clears the unread count', async () => {
    const reader = await createArtist(t.db);
    cookies.set(reader.id, await t.signIn(reader));
    await send(admin, { toUserId: reader.id, content: 'one' });
    await send(admin, { toUserId: reader.id, content: 'two' });
    expect((await get(reader, '/api/messages/unread-count')).json()).toEqual({ count: 2 });
    // The sender's own messages are not unread for the sender.
    const adminUnreadBefore = (await get(admin, '/api/messages/unread-count')).json<{ count: number }>().count;

    const read = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${admin.id}/read`,
      headers: { ...as(reader), origin: TEST_ORIGIN },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ updated: 2 });
    expect((await get(reader, '/api/messages/unread-count')).json()).toEqual({ count: 0 });
    const thread = (await get(reader, `/api/messages/${admin.id}`)).json<ThreadPage>();
    expect(thread.messages.every((m) => m.isRead)).toBe(true);
    // Marking read touches only messages addressed to the caller.
    expect((await get(admin, '/api/messages/unread-count')).json()).toEqual({ count: adminUnreadBefore });
  });

  it('offers artists the label team to start a conversation with', async () => {
    const second = await createAdmin(t.db, { firstName: 'Second' });
    cookies.set(second.id, await t.signIn(second));
    const contacts = (await get(otherArtist, '/api/messages/contacts')).json<{ id: string; role: string }[]>();
    expect(contacts.map((c) => c.id)).toEqual(expect.arrayContaining([admin.id, second.id]));
    expect(contacts.every((c) => c.role === 'admin')).toBe(true);
    expect(contacts[0]).not.toHaveProperty('password');
    // An artist starts the conversation from there: it waits for every admin.
    const before = (await get(second, '/api/messages/unread-count')).json<{ count: number }>().count;
    expect((await send(otherArtist, { toUserId: second.id, content: 'Hello team' })).statusCode).toBe(201);
    expect((await get(second, '/api/messages/unread-count')).json()).toEqual({ count: before + 1 });
  });

  it('answers 401 when signed out', async () => {
    for (const url of ['/api/messages', '/api/messages/unread-count', '/api/messages/contacts', `/api/messages/${admin.id}`]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});
