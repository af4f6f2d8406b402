import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { migrationsFolder } from './client';
import { conversations, messages, teamConversations, type UserRow } from './schema';
import { createAdmin, createArtist, createTestApp, type TestApp } from '../../test/helpers';
import { newId } from '../ids';
import { TEAM_CONVERSATION_ID, type ConversationsPage, type ThreadPage } from '@shared/messages';

/**
 * Migration 0022 (decision 159) folds conversations an artist had with individual admins into
 * their one team conversation. The database here is migrated already; rows are written the way
 * the code before 0022 wrote them (to a person, no artist, a conversations row per person), then
 * the migration's data statements (re-runnable by design) run again on them, on PGlite or on
 * PostgreSQL as the suite is run.
 */
/** Found by its name, not its number: the number may change when branches merge. */
const TEAM_INBOX_MIGRATION = readdirSync(migrationsFolder).find((f) => f.endsWith('_team-inbox.sql'))!;
const foldStatements = readFileSync(path.join(migrationsFolder, TEAM_INBOX_MIGRATION), 'utf8')
  .split('--> statement-breakpoint')
  .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
  .filter((s) => /^(UPDATE|INSERT|DELETE)/.test(s));

let t: TestApp;
let admins: UserRow[];
let artists: UserRow[];
const written: { id: string; from: UserRow; to: UserRow; content: string; isRead: boolean }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admins = [
    await createAdmin(t.db, { firstName: 'Ada' }),
    await createAdmin(t.db, { firstName: 'Ben' }),
    await createAdmin(t.db, { firstName: 'Cleo' }),
  ];
  artists = [await createArtist(t.db, { artistName: 'Kai' }), await createArtist(t.db, { artistName: 'Mia' })];
  // Kai wrote with all three admins, Mia with two; Ada and Ben also wrote to each other.
  const plan: [UserRow, UserRow, boolean][] = [
    [artists[0]!, admins[0]!, true],
    [admins[0]!, artists[0]!, true],
    [artists[0]!, admins[1]!, false],
    [admins[2]!, artists[0]!, false],
    [artists[0]!, admins[2]!, false],
    [artists[1]!, admins[1]!, true],
    [admins[2]!, artists[1]!, true],
    [artists[1]!, admins[2]!, false],
    [admins[0]!, admins[1]!, false],
  ];
  const start = Date.parse('2026-01-01T10:00:00Z');
  for (const [i, [from, to, isRead]] of plan.entries()) {
    const id = newId();
    const content = `#${i} ${from.firstName ?? from.artistName} to ${to.firstName ?? to.artistName}`;
    await t.db.insert(messages).values({ id, fromUserId: from.id, toUserId: to.id, content, isRead, createdAt: new Date(start + i * 60_000) });
    // As recordInConversations left them before 0022: a row per person, latest message.
    for (const [user, otherUser] of [
      [from, to],
      [to, from],
    ] as const) {
      await t.db
        .insert(conversations)
        .values({ userId: user.id, otherUserId: otherUser.id, lastMessageId: id, lastMessageAt: new Date(start + i * 60_000) })
        .onConflictDoUpdate({ target: [conversations.userId, conversations.otherUserId], set: { lastMessageId: id, lastMessageAt: new Date(start + i * 60_000) } });
    }
    written.push({ id, from, to, content, isRead });
  }
  for (const statement of foldStatements) await t.db.execute(sql.raw(statement));
});
afterAll(() => t.close());

const cookieOf = new Map<string, string>();
async function get<T>(user: UserRow, url: string): Promise<T> {
  if (!cookieOf.has(user.id)) cookieOf.set(user.id, await t.signIn(user));
  const res = await t.call('GET', url, cookieOf.get(user.id));
  expect(res.statusCode).toBe(200);
  return res.json<T>();
}

describe('migration 0022: conversations with several admins fold into the team conversation', () => {
  it('has the fold statements to replay', () => {
    expect(foldStatements.length).toBe(3);
  });

  it('loses nothing: every message keeps its sender, addressee, text, time and read state', async () => {
    const rows = await t.db.select().from(messages).orderBy(asc(messages.createdAt));
    expect(rows.map((r) => [r.id, r.fromUserId, r.toUserId, r.content, r.isRead])).toEqual(
      written.map((w) => [w.id, w.from.id, w.to.id, w.content, w.isRead]),
    );
    expect(rows.map((r) => r.artistId)).toEqual([...Array(5).fill(artists[0]!.id), ...Array(3).fill(artists[1]!.id), null]);
  });

  it('gives each artist one team row and leaves only the admins own conversation as person to person', async () => {
    const team = await t.db.select().from(teamConversations).orderBy(asc(teamConversations.lastMessageAt));
    expect(team.map((r) => [r.artistId, r.lastMessageId])).toEqual([
      [artists[0]!.id, written[4]!.id],
      [artists[1]!.id, written[7]!.id],
    ]);
    const people = await t.db.select().from(conversations);
    expect(people.map((r) => [r.userId, r.otherUserId]).sort()).toEqual([[admins[0]!.id, admins[1]!.id], [admins[1]!.id, admins[0]!.id]].sort());
    const folded = await t.db.select().from(messages).where(eq(messages.artistId, artists[0]!.id));
    expect(folded).toHaveLength(5);
  });

  it('shows every admin both whole conversations, and the artist theirs with the team', async () => {
    for (const admin of admins) {
      expect((await get<ThreadPage>(admin, `/api/messages/${artists[0]!.id}`)).messages.map((m) => m.id)).toEqual(written.slice(0, 5).map((w) => w.id));
      expect((await get<ThreadPage>(admin, `/api/messages/${artists[1]!.id}`)).messages.map((m) => m.id)).toEqual(written.slice(5, 8).map((w) => w.id));
      const list = await get<ConversationsPage>(admin, '/api/messages/conversations');
      const artistsInList = list.conversations.filter((c) => c.user.role !== 'admin');
      // Unread for the team: Kai's two unread messages (to Ben and to Cleo), Mia's one.
      expect(artistsInList.map((c) => [c.user.id, c.unreadCount])).toEqual([
        [artists[1]!.id, 1],
        [artists[0]!.id, 2],
      ]);
    }
    const kai = await get<ThreadPage>(artists[0]!, `/api/messages/${admins[1]!.id}`);
    expect(kai.user.id).toBe(TEAM_CONVERSATION_ID);
    expect(kai.messages.map((m) => m.id)).toEqual(written.slice(0, 5).map((w) => w.id));
    const kaiList = await get<ConversationsPage>(artists[0]!, '/api/messages/conversations');
    // Cleo's message to Kai is still unread by him.
    expect(kaiList.conversations.map((c) => [c.user.id, c.unreadCount])).toEqual([[TEAM_CONVERSATION_ID, 1]]);
    // The admins' own conversation is unchanged.
    expect((await get<ThreadPage>(admins[1]!, `/api/messages/${admins[0]!.id}`)).messages.map((m) => m.id)).toEqual([written[8]!.id]);
  });

  it('is a no-op when replayed', async () => {
    const before = await t.db.select().from(teamConversations);
    for (const statement of foldStatements) await t.db.execute(sql.raw(statement));
    expect(await t.db.select().from(teamConversations)).toEqual(before);
  });
});
