import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../platform/db/client';
import { uploads } from '../../platform/db/schema';
import { LocalObjectStorage } from '../../platform/storage/local-storage';
import { removeUnattachedUploads } from '../../platform/storage/upload-files';
import { withDatabase } from '../../test/global-setup';
import { waitFor } from '../../test/kit';

// Issue 9, finding 7, for real: the server runs as a child process and is killed with SIGKILL
// in the middle of two 100 MB uploads, then restarted on the same data.
const MB = 1024 * 1024;
const SIZE = 100 * MB;
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: () => Promise<void> = async () => {};
let port: number;
let origin: string;
let server: ChildProcess | undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(p));
    });
  });
}

async function startServer(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'crash-test-secret-crash-test-secret-0123',
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  server = child;
  // Generous: on a loaded machine, starting tsx and migrating can take a while.
  const { exitCode } = await waitFor(
    async () => (child.exitCode !== null ? { exitCode: child.exitCode } : (await fetch(`${origin}/healthz`).then((r) => r.ok, () => false)) && { exitCode: null }),
    { timeoutMs: 150_000, intervalMs: 100, what: 'the server to start' },
  );
  if (exitCode !== null) throw new Error(`the server exited with ${exitCode}`);
}

async function stopServer(signal: NodeJS.Signals): Promise<void> {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** An MP3 frame header, then `size` bytes in 1 MB chunks. */
function mp3Body(size: number): Readable {
  let sent = 0;
  const chunk = Buffer.alloc(MB);
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(MB, size - sent);
      const bytes = Buffer.from(chunk.subarray(0, n));
      if (sent === 0) bytes.set([0xff, 0xfb, 0x90, 0x64]);
      sent += n;
      this.push(bytes);
    },
  });
}

function put(url: string, cookie: string): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'PUT',
      headers: { cookie, origin, 'content-type': 'audio/mpeg', 'content-length': String(SIZE) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', () => resolve({ status: 0, headers: {} }));
    mp3Body(SIZE).pipe(req);
  });
}

const tmpDir = () => path.join(dataDir, 'objects', 'tmp');
const tmpFiles = () => (existsSync(tmpDir()) ? readdirSync(tmpDir()) : []);
const idOf = (url: string) => new URL(url).pathname.split('/').pop()!;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hub-crash-'));
  const target = inject('testDatabase');
  if (target.kind === 'pglite') {
    cpSync(target.templateDir, path.join(dataDir, 'db'), { recursive: true });
  } else {
    const name = `hub_crash_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query(`create database "${name}" template "${target.template}"`);
    await admin.end();
    databaseUrl = withDatabase(target.url, name);
    dropDatabase = async () => {
      const dropper = new pg.Client({ connectionString: target.url });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    };
  }
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  await startServer();
}, 200_000);

afterAll(async () => {
  await stopServer('SIGKILL');
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a server killed with SIGKILL in the middle of 100 MB uploads', () => {
  it('leaves nothing orphaned, and the upload can be retried at once after a restart', async () => {
    const register = await fetch(`${origin}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ firstName: 'Crash', lastName: 'Test', email: 'crash@example.com', password: 'correct-horse-42' }),
    });
    expect(register.status).toBe(201);
    const cookie = register.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const issue = async () => {
      const res = await fetch(`${origin}/api/objects/upload`, { method: 'POST', headers: { cookie, origin } });
      return ((await res.json()) as { uploadURL: string }).uploadURL;
    };
    const retried = await issue();
    const abandoned = await issue();

    // Both uploads stream; the server dies once each has written a good part of its file.
    const inFlight = [put(retried, cookie), put(abandoned, cookie)];
    const partSize = (url: string) => {
      const file = path.join(tmpDir(), `incoming~${idOf(url)}`);
      return existsSync(file) ? statSync(file).size : 0;
    };
    await waitFor(() => partSize(retried) >= 20 * MB && partSize(abandoned) >= 20 * MB, { intervalMs: 10, what: 'both uploads to write 20 MB' });
    const written = [partSize(retried), partSize(abandoned)];
    await stopServer('SIGKILL');
    const answered = await Promise.all(inFlight);
    expect(answered.map((a) => a.status)).toEqual([0, 0]);
    expect(written.every((bytes) => bytes > 0 && bytes < SIZE)).toBe(true);
    expect(tmpFiles().sort()).toEqual([`incoming~${idOf(retried)}`, `incoming~${idOf(abandoned)}`].sort());

    await startServer();
    // The dead server's claim lapses within its 10 s lease; until then 409 with Retry-After.
    const attempts: number[] = [];
    for (;;) {
      const res = await put(retried, cookie);
      attempts.push(res.status);
      if (res.status !== 409) break;
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(10);
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers['retry-after']) * 1000));
    }
    expect(attempts.at(-1)).toBe(200);
    expect(attempts.length).toBeLessThanOrEqual(3);
    const check = await fetch(`${origin}/api/music-files`, {
      method: 'PUT',
      headers: { cookie, origin, 'content-type': 'application/json' },
      body: JSON.stringify({ musicFileURL: retried, fileName: 'retried.mp3' }),
    });
    expect(check.status).toBe(200);
    const { objectPath } = (await check.json()) as { objectPath: string };
    const download = await fetch(`${origin}${objectPath}`, { headers: { cookie } });
    expect(Number(download.headers.get('content-length'))).toBe(SIZE);
    await download.body?.cancel();
    // The retried upload's partial file went with the retry; the abandoned one's waits for its row.
    expect(tmpFiles()).toEqual([`incoming~${idOf(abandoned)}`]);
    await stopServer('SIGTERM');

    // A day later the sweep removes the abandoned upload: row, temporary file and all.
    const database = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'db') });
    try {
      await database.db
        .update(uploads)
        .set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000) })
        .where(eq(uploads.id, idOf(abandoned)));
      expect(await removeUnattachedUploads(database.db, new LocalObjectStorage(path.join(dataDir, 'objects')))).toBe(1);
      expect(await database.db.select({ id: uploads.id }).from(uploads)).toEqual([{ id: idOf(retried) }]);
    } finally {
      await database.close();
    }
    expect(tmpFiles()).toEqual([]);
    expect(readdirSync(path.join(dataDir, 'objects', 'incoming'))).toEqual([]);
    expect(readdirSync(path.join(dataDir, 'objects', 'uploads'))).toEqual([idOf(retried)]);
    console.info(
      `crash test: killed at ${written.map((b) => `${(b / MB).toFixed(0)} MB`).join(' and ')} of 100 MB; ` +
        `retry answered ${attempts.join(', ')}; orphaned files after the sweep: ${tmpFiles().length}`,
    );
  }, 500_000);
});
