import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submissionDesk, type UserRow } from '../../platform/db/schema';
import { TEST_ORIGIN, createAdmin, createArtist, createStoredUpload, createSubmissionRow, createTestApp, sessionCookie, type TestApp } from '../../test/helpers';
import { FILE_LIMITS } from '@shared/submissions';
import { listenOnLoopback, openSocket, type TestSocket } from '../../test/test-sockets';
import { pngBytes, textBytes } from '../../test/file-fixtures';
import { MESSAGE_TEXTS, TEAM_CONVERSATION_ID, type ConversationsPage, type Message, type ThreadPage } from '@shared/messages';

/** CONTRACT §18: one conversation per artist with the whole team, its read state, files and pushes. */
let t: TestApp;
let url: string;
let lena: UserRow;
let omar: UserRow;
let nora: UserRow;
let other: UserRow;
const cookies = new Map<string, string>();
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await listenOnLoopback(t.app);
  lena = await createAdmin(t.db, { firstName: 'Lena', lastName: 'Label' });
  omar = await createAdmin(t.db, { firstName: 'Omar', lastName: 'Desk' });
  nora = await createArtist(t.db, { artistName: 'Nora Vex' });
  other = await createArtist(t.db, { artistName: 'Someone Else' });
  for (const user of [lena, omar, nora, other]) cookies.set(user.id, await sessionCookie(t.app, t.db, user));
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await t.close();
});

const as = (user: UserRow | null) => (user ? cookies.get(user.id)! : null);
const send = (from: UserRow, body: Record<string, unknown>) => t.call('POST', '/api/messages', as(from), body);
const get = (user: UserRow | null, path: string) => t.call('GET', path, as(user));
const thread = async (user: UserRow, otherId: string) => {
  const res = await get(user, `/api/messages/${otherId}`);
  expect(res.statusCode).toBe(200);
  return res.json<ThreadPage>();
};
const unread = async (user: UserRow) => (await get(user, '/api/messages/unread-count')).json<{ count: number }>().count;

/** An upload of these bytes by `user`, checked as a message's file. */
async function attachment(user: UserRow, bytes: Buffer, fileName: string) {
  const issued = new URL((await t.call('POST', '/api/objects/upload', as(user))).json<{ uploadURL: string }>().uploadURL);
  const put = await t.injectAs(as(user), {
    method: 'PUT',
    url: issued.pathname + issued.search,
    headers: { 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
  expect(put.statusCode).toBe(200);
  return t.call('PUT', '/api/attachment-files', as(user), { fileURL: issued.toString(), fileName, fileSize: bytes.length });
}
const pdfBytes = () => Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');

describe('one team conversation per artist', () => {
  it('takes an artist message without a recipient, or with any admin, into one conversation every admin sees', async () => {
    const first = await send(nora, { content: 'Hello label' });
    expect(first.statusCode).toBe(201);
    expect(first.json<Message>()).toMatchObject({ toUserId: null, artistId: nora.id, toUser: null });
    expect((await send(nora, { toUserId: omar.id, content: 'Second, to Omar' })).statusCode).toBe(201);
    expect((await send(nora, { toUserId: TEAM_CONVERSATION_ID, content: 'Third, to the team' })).statusCode).toBe(201);

    for (const admin of [lena, omar]) {
      const seen = await thread(admin, nora.id);
      expect(seen.user.id).toBe(nora.id);
      expect(seen.messages.map((m) => m.content)).toEqual(['Hello label', 'Second, to Omar', 'Third, to the team']);
    }
    // The artist names the conversation by any admin's id, or by the team's.
    for (const id of [lena.id, omar.id, TEAM_CONVERSATION_ID]) {
      const mine = await thread(nora, id);
      expect(mine.user).toMatchObject({ id: TEAM_CONVERSATION_ID, artistName: 'The label team' });
      expect(mine.messages).toHaveLength(3);
    }
  });

  it('signs each team reply with its admin and shows both in the artist thread', async () => {
    expect((await send(lena, { toUserId: nora.id, content: 'From Lena' })).statusCode).toBe(201);
    expect((await send(omar, { toUserId: nora.id, content: 'From Omar' })).statusCode).toBe(201);
    const mine = await thread(nora, TEAM_CONVERSATION_ID);
    expect(mine.messages.slice(-2).map((m) => [m.content, m.fromUser.firstName])).toEqual([
      ['From Lena', 'Lena'],
      ['From Omar', 'Omar'],
    ]);
    const list = (await get(nora, '/api/messages/conversations')).json<ConversationsPage>();
    expect(list.conversations.map((c) => [c.user.id, c.unreadCount])).toEqual([[TEAM_CONVERSATION_ID, 2]]);
  });

  it('keeps one read state for the team: unread for every admin until one opens or answers it', async () => {
    const [lenaBefore, omarBefore] = [await unread(lena), await unread(omar)];
    await send(nora, { content: 'Anyone there?' });
    expect([await unread(lena), await unread(omar)]).toEqual([lenaBefore + 1, omarBefore + 1]);
    // Omar opens it: read for Lena too.
    const read = await t.call('POST', `/api/messages/${nora.id}/read`, as(omar));
    expect(read.json()).toEqual({ updated: 1 });
    expect([await unread(lena), await unread(omar)]).toEqual([lenaBefore, omarBefore]);

    await send(nora, { content: 'One more' });
    expect(await unread(lena)).toBe(lenaBefore + 1);
    // Answering is reading.
    await send(lena, { toUserId: nora.id, content: 'Here!' });
    expect([await unread(lena), await unread(omar)]).toEqual([lenaBefore, omarBefore]);
    // The artist's own side is theirs: the team's replies wait for them.
    expect(await unread(nora)).toBe(3);
    expect((await t.call('POST', `/api/messages/${TEAM_CONVERSATION_ID}/read`, as(nora))).json()).toEqual({ updated: 3 });
    expect(await unread(nora)).toBe(0);
  });

  it('shows every artist conversation in each admin list, with the latest submission assignee and the filters', async () => {
    const assigned = await createSubmissionRow(t.db, other, { songTitle: 'Assigned Song' });
    await t.db.insert(submissionDesk).values({ submissionId: assigned.id, assigneeId: omar.id });
    await send(other, { content: 'About my song', submissionId: assigned.id });
    const ids = async (user: UserRow, filter: string) =>
      (await get(user, `/api/messages/conversations?filter=${filter}`)).json<ConversationsPage>().conversations.map((c) => c.user.id);
    const all = (await get(lena, '/api/messages/conversations')).json<ConversationsPage>().conversations;
    expect(all.map((c) => [c.user.id, c.assignee?.name ?? null])).toEqual([
      [other.id, 'Omar Desk'],
      [nora.id, null],
    ]);
    expect(await ids(omar, 'mine')).toEqual([other.id]);
    expect(await ids(lena, 'mine')).toEqual([]);
    expect(await ids(lena, 'unassigned')).toEqual([nora.id]);
    expect((await get(lena, '/api/messages/conversations?filter=nobody')).statusCode).toBe(400);
  });

  it('shows the submission a message names, by title and status', async () => {
    const { messages } = await thread(lena, other.id);
    expect(messages.at(-1)!.submission).toMatchObject({ songTitle: 'Assigned Song', status: 'pending' });
  });

  it('keeps other artists out: 404 for another artist, 401 signed out', async () => {
    expect((await get(other, `/api/messages/${nora.id}`)).statusCode).toBe(404);
    expect((await t.call('POST', `/api/messages/${nora.id}/read`, as(other))).statusCode).toBe(404);
    expect((await thread(other, TEAM_CONVERSATION_ID)).messages.map((m) => m.content)).toEqual(['About my song']);
    expect((await get(lena, `/api/messages/${TEAM_CONVERSATION_ID}`)).statusCode).toBe(404);
    expect((await get(null, `/api/messages/${nora.id}`)).statusCode).toBe(401);
    expect((await t.call('POST', '/api/messages', null, { content: 'x' })).statusCode).toBe(401);
  });

  it('refuses bad input with a clear 4xx', async () => {
    const cases: [UserRow, Record<string, unknown>, number][] = [
      [lena, { content: 'no recipient' }, 400],
      [nora, { toUserId: other.id, content: 'to an artist' }, 403],
      [nora, { content: 'x', attachments: 'nope' }, 400],
      [nora, { content: 'x', attachments: ['/etc/passwd'] }, 400],
      [nora, { content: 'x', attachments: Array.from({ length: 6 }, (_, i) => `/objects/uploads/a${i}`) }, 400],
      [nora, { content: 'x', attachments: ['/objects/uploads/does-not-exist'] }, 400],
      [nora, { content: 'bad \u0000 text' }, 400],
    ];
    for (const [from, body, status] of cases) expect([body, (await send(from, body)).statusCode]).toEqual([body, status]);
    expect((await send(lena, { content: 'x' })).json<{ message: string }>().message).toBe(MESSAGE_TEXTS.recipientRequired);
  });
});

describe('attachments', () => {
  it('checks a message file by its bytes: PDF and images accepted, text refused', async () => {
    const pdf = await attachment(nora, pdfBytes(), 'brief.pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.json<{ objectPath: string }>().objectPath).toMatch(/^\/objects\/uploads\//);
    expect((await attachment(nora, pngBytes(), 'still.png')).statusCode).toBe(200);
    expect((await attachment(nora, textBytes(), 'notes.pdf')).statusCode).toBe(415);
    expect((await t.call('PUT', '/api/attachment-files', as(nora), { fileName: 'x' })).statusCode).toBe(400);
    expect((await t.call('PUT', '/api/attachment-files', null, { fileURL: 'x' })).statusCode).toBe(401);
  });

  it('lets the conversation two sides fetch a file, and nobody else', async () => {
    const mine = (await attachment(nora, pdfBytes(), 'brief.pdf')).json<{ objectPath: string }>().objectPath;
    const artwork = await t.uploadFile('image', nora);
    const sent = await send(nora, { content: 'Files', attachments: [mine, artwork] });
    expect(sent.statusCode).toBe(201);
    expect(sent.json<Message>().attachments.map((a) => [a.objectPath, a.contentType])).toEqual([
      [mine, 'application/pdf'],
      [artwork, 'image/png'],
    ]);
    // Someone else's file cannot be attached, nor a file larger than a message's (a finished video).
    expect((await send(other, { content: 'stolen', attachments: [mine] })).statusCode).toBe(400);
    const big = await createStoredUpload(t.db, nora, { contentType: 'video/mp4', size: FILE_LIMITS.attachmentBytes + 1 });
    expect((await send(nora, { content: 'too big', attachments: [big.path] })).statusCode).toBe(400);

    const teamFile = (await attachment(lena, pngBytes(), 'frame.png')).json<{ objectPath: string }>().objectPath;
    // Before it is sent, only the team sees the team's file.
    expect((await get(nora, teamFile)).statusCode).toBe(404);
    expect((await send(lena, { toUserId: nora.id, content: 'A frame', attachments: [teamFile] })).statusCode).toBe(201);
    const fetches: [UserRow | null, string, number][] = [
      [lena, mine, 200],
      [omar, mine, 200],
      [nora, mine, 200],
      [other, mine, 404],
      [null, mine, 401],
      [nora, teamFile, 200],
      [omar, teamFile, 200],
      [other, teamFile, 404],
      [null, teamFile, 401],
    ];
    for (const [who, path, status] of fetches) expect([who?.id ?? null, path, (await get(who, path)).statusCode]).toEqual([who?.id ?? null, path, status]);
    const inThread = (await thread(nora, TEAM_CONVERSATION_ID)).messages.at(-1)!;
    expect(inThread.attachments).toMatchObject([{ objectPath: teamFile, contentType: 'image/png', fileName: 'frame.png' }]);
  });
});

describe('live', () => {
  it('pushes an artist message to every admin socket and to the artist', async () => {
    const open = async (user: UserRow) => {
      const socket = await openSocket(url, { cookie: cookies.get(user.id)!, origin: TEST_ORIGIN });
      sockets.push(socket);
      await socket.waitFor((e) => e.type === 'ready');
      return socket;
    };
    const [l, o, n, x] = await Promise.all([open(lena), open(omar), open(nora), open(other)]);
    await send(nora, { content: 'Live to the team' });
    const arrived = (e: { type: string; message?: { content?: string } }) => e.type === 'new_message' && e.message?.content === 'Live to the team';
    for (const socket of [l, o, n]) await socket.waitFor(arrived);
    // A team member's reply reaches the other team member too; the read state change as well.
    await send(omar, { toUserId: nora.id, content: 'Omar answers' });
    await l.waitFor((e: { type: string; message?: { content?: string } }) => e.type === 'new_message' && e.message?.content === 'Omar answers');
    await l.waitFor((e: { type: string; userId?: string }) => e.type === 'messages_read' && e.userId === nora.id);
    expect(x.events.some((e) => e.type === 'new_message')).toBe(false);
  });
});
