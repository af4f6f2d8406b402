import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../platform/db/schema';
import { TEST_ORIGIN, createAdmin, createArtist, createTestApp, type TestApp } from '../../test/helpers';
import { TEAM_CONVERSATION_ID, type ConversationsPage } from '@shared/messages';

/** GET /api/messages/conversations: grouped, latest message, unread count, paged (issue 16). */
let t: TestApp;
let admin: UserRow;
let secondAdmin: UserRow;
let artists: UserRow[];
const cookies = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t.db, { firstName: 'Lena' });
  secondAdmin = await createAdmin(t.db, { firstName: 'Omar' });
  artists = [];
  for (let i = 0; i < 5; i++) artists.push(await createArtist(t.db, { artistName: `Artist ${i}` }));
  for (const user of [admin, secondAdmin, ...artists]) cookies.set(user.id, await t.signIn(user));
});
afterAll(() => t.close());

async function send(from: UserRow, to: UserRow, content: string) {
  const res = await t.call('POST', '/api/messages', cookies.get(from.id), { toUserId: to.id, content });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}
async function page(user: UserRow, query = '') {
  const res = await t.call('GET', `/api/messages/conversations${query}`, cookies.get(user.id));
  expect(res.statusCode).toBe(200);
  return res.json<ConversationsPage>();
}

describe('conversations', () => {
  it('answers an empty list before any message', async () => {
    expect(await page(admin)).toEqual({ conversations: [], nextCursor: null });
  });

  it('groups by the other person, latest message first, with unread counts for the caller', async () => {
    // artist 0: two from the admin, one answer; artist 1: three from the artist; artist 2: one from the admin.
    await send(admin, artists[0]!, 'Hello 0');
    await send(artists[1]!, admin, 'Question 1');
    await send(admin, artists[2]!, 'Hello 2');
    await send(artists[1]!, admin, 'Question 2');
    await send(admin, artists[0]!, 'Second to 0');
    await send(artists[0]!, admin, 'Reply from 0');
    const newestFrom1 = await send(artists[1]!, admin, 'Question 3');

    const { conversations, nextCursor } = await page(admin);
    expect(nextCursor).toBeNull();
    expect(conversations.map((c) => [c.user.id, c.lastMessage.content, c.unreadCount])).toEqual([
      [artists[1]!.id, 'Question 3', 3],
      [artists[0]!.id, 'Reply from 0', 1],
      [artists[2]!.id, 'Hello 2', 0],
    ]);
    expect(conversations[0]!.latestUnreadId).toBe(newestFrom1);
    expect(conversations[2]!.latestUnreadId).toBeNull();
    expect(conversations[0]!.user).not.toHaveProperty('password');

    // The artist sees the same conversation from their side, with the label team: the admin's two messages unread.
    const mine = await page(artists[0]!);
    expect(mine.conversations.map((c) => [c.user.id, c.lastMessage.content, c.unreadCount])).toEqual([[TEAM_CONVERSATION_ID, 'Reply from 0', 2]]);
    // The whole team shares the artists' conversations (CONTRACT §18): the second admin sees them too.
    expect((await page(secondAdmin)).conversations.map((c) => [c.user.id, c.unreadCount])).toEqual([
      [artists[1]!.id, 3],
      [artists[0]!.id, 1],
      [artists[2]!.id, 0],
    ]);
  });

  it('counts nothing unread once the thread is read', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${artists[1]!.id}/read`,
      headers: { cookie: cookies.get(admin.id)!, origin: TEST_ORIGIN },
    });
    expect(res.json()).toEqual({ updated: 3 });
    const first = (await page(admin)).conversations[0]!;
    expect([first.user.id, first.unreadCount, first.latestUnreadId]).toEqual([artists[1]!.id, 0, null]);
  });

  it('pages with a cursor, newest first; a conversation that moves to the top meanwhile shifts no page', async () => {
    await send(secondAdmin, artists[3]!, 'a');
    await send(secondAdmin, artists[4]!, 'b');
    await send(secondAdmin, artists[0]!, 'c');
    await send(secondAdmin, artists[1]!, 'd');
    await send(secondAdmin, artists[2]!, 'e');

    const first = await page(secondAdmin, '?limit=2');
    // a, b, c, d, e: five conversations, two a page.
    expect(first.conversations.map((c) => c.lastMessage.content)).toEqual(['e', 'd']);
    expect(first.nextCursor).toEqual(expect.any(String));
    // A new message moves artist 3 to the top; the pages after the cursor are not shifted by it.
    await send(artists[3]!, secondAdmin, 'f');
    const second = await page(secondAdmin, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.conversations.map((c) => c.lastMessage.content)).toEqual(['c', 'b']);
    expect(second.nextCursor).toBeNull();
    expect((await page(secondAdmin)).conversations.map((c) => c.lastMessage.content)).toEqual(['f', 'e', 'd', 'c', 'b']);
  });

  it('keeps one row per pair when both write at the same moment', async () => {
    const [a, b] = [artists[4]!, admin];
    await Promise.all([send(a, b, 'x1'), send(b, a, 'x2'), send(a, b, 'x3'), send(b, a, 'x4')]);
    const list = (await page(admin)).conversations.filter((c) => c.user.id === a.id);
    expect(list).toHaveLength(1);
    expect(['x1', 'x2', 'x3', 'x4']).toContain(list[0]!.lastMessage.content);
  });

  it('refuses a cursor it did not make and a bad limit with 400', async () => {
    for (const query of ['?cursor=not-a-cursor', `?cursor=${Buffer.from('["x","y"]').toString('base64url')}`, '?limit=0', '?limit=1000', '?limit=abc']) {
      const res = await t.app.inject({ url: `/api/messages/conversations${query}`, headers: { cookie: cookies.get(admin.id)! } });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toHaveProperty('code');
    }
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ url: '/api/messages/conversations' })).statusCode).toBe(401);
  });
});
