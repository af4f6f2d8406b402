import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Message as MessageView } from '@shared/messages';
import { TEST_ORIGIN, createAdmin, createArtist, createTestApp, secondInstance, sessionCookie, type TestApp } from '../../test/helpers';
import type { UserRow } from '../db/schema';
import { waitFor } from '../../test/kit';
import { UpgradeRefused, listenOnLoopback, openSocket, type TestSocket } from '../../test/test-sockets';

type NewMessage = { type: 'new_message'; message: MessageView };
const isNewMessage = (content: string) => (e: { type: string; message?: { content?: string } }) =>
  e.type === 'new_message' && e.message?.content === content;

let t: TestApp;
let url: string;
let admin: UserRow;
let artist: UserRow;
let intruder: UserRow;
const cookies = new Map<string, string>();
const opened: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = await listenOnLoopback(t.app);
  admin = await createAdmin(t.db, { firstName: 'Lena' });
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  intruder = await createArtist(t.db, { artistName: 'Intruder' });
  for (const user of [admin, artist, intruder]) cookies.set(user.id, await sessionCookie(t.app, t.db, user));
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await t.close();
});

async function connect(user: UserRow, target = url, origin = TEST_ORIGIN): Promise<TestSocket> {
  const socket = await openSocket(target, { cookie: cookies.get(user.id)!, origin });
  opened.push(socket);
  await socket.waitFor((e) => e.type === 'ready');
  return socket;
}

async function post(app: FastifyInstance, from: UserRow, toUserId: string, content: string): Promise<MessageView> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/messages',
    headers: { cookie: cookies.get(from.id)!, origin: TEST_ORIGIN },
    payload: { toUserId, content },
  });
  expect(res.statusCode).toBe(201);
  return res.json<MessageView>();
}

describe('the /ws upgrade', () => {
  it('is refused without a session cookie (401)', async () => {
    await expect(openSocket(url, { origin: TEST_ORIGIN })).rejects.toMatchObject({ statusCode: 401 });
    await expect(openSocket(url, { origin: TEST_ORIGIN, cookie: 'sid=forged.value' })).rejects.toBeInstanceOf(UpgradeRefused);
  });

  it('is refused from a foreign Origin (403), even with a valid session', async () => {
    await expect(openSocket(url, { cookie: cookies.get(artist.id)!, origin: 'https://evil.example' })).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('opens for a signed-in user and says who the session is', async () => {
    const socket = await connect(artist);
    expect(socket.events[0]).toEqual({ type: 'ready', userId: artist.id });
    expect(t.app.realtime.socketCount(artist.id)).toBeGreaterThanOrEqual(1);
  });
});

describe('live delivery', () => {
  it('pushes a new message to every socket of the recipient and of the sender', async () => {
    const [artistTab1, artistTab2, adminTab] = await Promise.all([connect(artist), connect(artist), connect(admin)]);
    const sent = await post(t.app, admin, artist.id, 'Hello from the label');
    for (const socket of [artistTab1, artistTab2, adminTab]) {
      const event = await socket.waitFor<NewMessage>(isNewMessage('Hello from the label'));
      expect(event.message).toMatchObject({ id: sent.id, fromUserId: admin.id, toUserId: artist.id });
      expect(event.message.fromUser).not.toHaveProperty('password');
    }
  });

  it('never lets a spoofed auth message receive another user’s messages', async () => {
    const spy = await connect(intruder);
    spy.ws.send(JSON.stringify({ type: 'auth', userId: artist.id }));
    // The victim's whole handshake and session lookup come after the spoofed message was sent.
    const victim = await connect(artist);
    await post(t.app, admin, artist.id, 'Private to Nora');
    await victim.waitFor(isNewMessage('Private to Nora'));
    // A message to the spy, posted after: once it has arrived, anything sent to the spy before it has too.
    await post(t.app, admin, intruder.id, 'For the intruder');
    await spy.waitFor(isNewMessage('For the intruder'));
    expect(spy.events.filter((e) => e.type !== 'ready' && !isNewMessage('For the intruder')(e))).toEqual([]);
  });

  it('forgets closed sockets', async () => {
    const socket = await connect(intruder);
    const before = t.app.realtime.socketCount(intruder.id);
    await socket.close();
    await waitFor(() => t.app.realtime.socketCount(intruder.id) === before - 1, { what: 'the closed socket to be forgotten' });
  });

  it('delivers a message too large for a NOTIFY payload (by reference) across instances too', async () => {
    const long = `${'ä'.repeat(4999)}!`; // 10 kB of UTF-8: more than PostgreSQL's 8000-byte NOTIFY limit
    const second = await secondInstance(t);
    try {
      const secondUrl = await listenOnLoopback(second.app);
      const remote = await connect(artist, secondUrl);
      await post(t.app, admin, artist.id, long);
      const event = await remote.waitFor<NewMessage>(isNewMessage(long));
      expect(event.message.toUser?.id).toBe(artist.id);
    } finally {
      await second.close();
    }
  });
});

describe('across server instances sharing one database', () => {
  it('delivers a message posted on one instance to sockets on another, both ways', async () => {
    const second = await secondInstance(t);
    try {
      const secondUrl = await listenOnLoopback(second.app);
      const artistOnSecond = await connect(artist, secondUrl);
      const adminOnFirst = await connect(admin);

      // Posted to instance 1: the artist's socket on instance 2 receives it, the admin's on 1 too.
      await post(t.app, admin, artist.id, 'Across instances');
      await artistOnSecond.waitFor(isNewMessage('Across instances'));
      await adminOnFirst.waitFor(isNewMessage('Across instances'));

      // The answer, posted to instance 2, reaches the admin on instance 1.
      await post(second.app, artist, admin.id, 'Answer from instance two');
      await adminOnFirst.waitFor(isNewMessage('Answer from instance two'));
      await artistOnSecond.waitFor(isNewMessage('Answer from instance two'));
      // Each socket receives each message once: the publishing instance skips its own notification.
      // A third message, posted after: once both sockets have it, any copy of the first two has come too.
      await post(t.app, admin, artist.id, 'Last of three');
      await artistOnSecond.waitFor(isNewMessage('Last of three'));
      await adminOnFirst.waitFor(isNewMessage('Last of three'));
      expect(adminOnFirst.events.filter(isNewMessage('Across instances'))).toHaveLength(1);
      expect(artistOnSecond.events.filter(isNewMessage('Answer from instance two'))).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

// Two processes cannot share one embedded database, so this journey exists only in the
// PostgreSQL run (npm test with DATABASE_URL, which CI runs too).
const onPostgres = inject('testDatabase').kind === 'postgres';
(onPostgres ? describe : () => undefined)('across server processes sharing one PostgreSQL', () => {
  it('delivers to a socket held by another server process, and back', { timeout: 60_000 }, async () => {
    const server = await startServerProcess(t);
    try {
      const artistOnOther = await connect(artist, server.wsUrl);
      const adminHere = await connect(admin);
      await post(t.app, admin, artist.id, 'To another process');
      await artistOnOther.waitFor(isNewMessage('To another process'));

      const res = await fetch(`${server.httpUrl}/api/messages`, {
        method: 'POST',
        headers: { cookie: cookies.get(artist.id)!, origin: TEST_ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify({ toUserId: admin.id, content: 'Back from another process' }),
      });
      expect(res.status).toBe(201);
      await adminHere.waitFor(isNewMessage('Back from another process'));
    } finally {
      await server.stop();
    }
  });
});

/** `src/server/main.ts` as its own process on the test database, on a free loopback port. */
async function startServerProcess(first: TestApp): Promise<{ httpUrl: string; wsUrl: string; stop(): Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hub-process-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../../..'),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: TEST_ORIGIN,
      DATA_DIR: dataDir,
      DATABASE_URL: first.database.connectionString!,
      // The same secret as the in-process app, so the same signed session cookies are valid there.
      SESSION_SECRET: first.config.sessionSecret,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const httpUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const state = await waitFor(
    async () => (child.exitCode !== null ? 'exited' : (await fetch(`${httpUrl}/readyz`).then((r) => r.ok, () => false)) && 'ready'),
    { timeoutMs: 45_000, intervalMs: 200 },
  ).catch(() => 'late' as const);
  if (state !== 'ready') {
    await stop();
    throw new Error(state === 'exited' ? `server process exited: ${stderr}` : `server process did not become ready: ${stderr}`);
  }
  return { httpUrl, wsUrl: `ws://127.0.0.1:${port}/ws`, stop };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

