import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { openDatabase, type Database } from '../../platform/db/client';
import { submissions, uploads, users } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { LocalObjectStorage } from '../../platform/storage/local-storage';
import { objectKey } from '../../platform/storage/object-storage';
import { S3ObjectStorage } from '../../platform/storage/s3-storage';
import { withDatabase } from '../../test/global-setup';
import { createSubmissionRow, createTestDatabase, createUser, sessionCookie } from '../../test/helpers';
import { startS3Server, type TestS3Server } from '../../test/s3-server';
import { BackupError } from './backup';
import { moveDatabase, moveObjects } from './move-to-postgres';

describe('what npm run move-to-postgres refuses', () => {
  it('a source already on PostgreSQL, a target it cannot reach, files without a bucket', async () => {
    const { database, dataDir, drop } = await createTestDatabase();
    try {
      const moving = moveDatabase(database, 'postgres://nobody@127.0.0.1:1/nowhere');
      await expect(moving).rejects.toBeInstanceOf(BackupError);
      await expect(moving).rejects.toThrow(database.kind === 'postgres' ? /^The data is already on PostgreSQL/ : /^Cannot connect to postgres:\/\/nobody@127\.0\.0\.1:1\/nowhere/);
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32) });
      const local = new LocalObjectStorage(path.join(dataDir, 'objects'));
      await expect(moveObjects(database, local, local, config)).rejects.toThrow(/^--objects needs S3_BUCKET/);
    } finally {
      await drop();
    }
  });
});

// The move needs a PostgreSQL server to move to: it exists in the PostgreSQL run of npm test
// (DATABASE_URL, which CI runs too); its source is an embedded database made here.
const target = inject('testDatabase');
(target.kind === 'postgres' ? describe : () => undefined)('npm run move-to-postgres', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hub-move-'));
  const name = `hub_move_${process.pid}_${Date.now()}`;
  const serverUrl = target.kind === 'postgres' ? target.url : '';
  const to = withDatabase(serverUrl, name);
  let source: Database;
  let s3: TestS3Server;

  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(text);
    await client.end();
  };

  beforeAll(async () => {
    source = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    s3 = await startS3Server('moved-files');
    await admin(`create database "${name}"`);
  }, 120_000);
  afterAll(async () => {
    await source.close();
    await s3.close();
    await admin(`drop database if exists "${name}" with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every record and file, verified, and the same data serves from PostgreSQL and S3', { timeout: 120_000 }, async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SESSION_SECRET: 'move-test-secret-move-test-secret-0123', LOG_LEVEL: 'silent' });
    // A product that ran on the embedded database: its queues, schedules, users, submissions, files.
    const before = await buildApp({ config, database: source, client: 'none', logger: false });
    await before.ready();
    await before.close();
    const local = new LocalObjectStorage(path.join(dataDir, 'objects'));
    const artist = await createUser(source.db);
    const submission = await createSubmissionRow(source.db, artist);
    await createSubmissionRow(source.db, artist, { status: 'approved' });
    const files = new Map<string, Buffer>();
    for (let i = 0; i < 3; i++) {
      const id = newId();
      const bytes = randomBytes(50_000 + i * 70_000);
      await local.receive(objectKey('uploads', id), Readable.from([bytes]), bytes.length);
      await source.db.insert(uploads).values({ id, userId: artist.id, status: 'stored', size: bytes.length, contentType: 'audio/mpeg', submissionId: submission.id, uploadExpiresAt: new Date() });
      files.set(id, bytes);
    }

    const tables = await moveDatabase(source, to);
    expect(tables['public.users']).toBe(1);
    expect(tables['public.submissions']).toBe(2);
    expect(tables['pgboss.queue']).toBeGreaterThan(0);
    const s3Config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SESSION_SECRET: config.sessionSecret, DATABASE_URL: to, ...s3.env });
    const bucket = new S3ObjectStorage(s3.options);
    expect(await moveObjects(source, local, bucket, s3Config)).toEqual({ objects: 3, bytes: [...files.values()].reduce((n, b) => n + b.length, 0) });

    // Every row equal, every file byte-equal, from the new home.
    const moved = await openDatabase({ databaseUrl: to, pgliteDir: '' });
    try {
      expect(await moved.db.select().from(users)).toEqual(await source.db.select().from(users));
      expect(await moved.db.select().from(submissions)).toEqual(await source.db.select().from(submissions));
      for (const [id, bytes] of files) expect((await buffer(await bucket.read(objectKey('uploads', id)))).equals(bytes)).toBe(true);
      const app = await buildApp({ config: s3Config, database: moved, storage: bucket, client: 'none', logger: false });
      try {
        await app.ready();
        const listed = await app.inject({ method: 'GET', url: '/api/submissions', headers: { cookie: await sessionCookie(app, moved.db, artist) } });
        expect(listed.statusCode).toBe(200);
        expect(listed.json().map((item: { id: string }) => item.id)).toContain(submission.id);
      } finally {
        await app.close();
      }
    } finally {
      await moved.close();
    }

    // Once it holds data, the target (and the bucket) are refused with one line.
    await expect(moveDatabase(source, to)).rejects.toThrow(/^Refusing to move: the database at .* is not empty/);
    await expect(moveObjects(source, local, bucket, s3Config)).rejects.toBeInstanceOf(BackupError);
  });

  it('issue 32: a target with a users of its own is refused or left as it was found, in one line without SQL', { timeout: 120_000 }, async () => {
    const objectsOf = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(
          `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') order by 1`,
        );
        const schemas = await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname in ('drizzle', 'pgboss')`);
        return { relations: rows.map((r) => r.name), schemas: schemas.rows.map((r) => r.name) };
      } finally {
        await client.end();
      }
    };
    for (const [kind, create] of [
      ['table', 'create table users (login text primary key, shadow text)'],
      ['view', "create view users as select 'x'::text as login"],
    ] as const) {
      const other = `${name}_${kind}`;
      await admin(`create database "${other}"`);
      try {
        const url = withDatabase(serverUrl, other);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(create);
        await client.end();
        const before = await objectsOf(url);
        const moving = moveDatabase(source, url);
        await expect(moving).rejects.toBeInstanceOf(BackupError);
        const message = await moving.catch((error: Error) => error.message);
        expect(message).not.toMatch(/\n|Failed query|create table|params/i);
        expect(message).toMatch(kind === 'table' ? /^Refusing to move: .* holds tables this product did not make \(public\.users\)$/ : /^Cannot give the database at .* this version's tables: .*users.*; nothing was left in it$/);
        expect(await objectsOf(url)).toEqual(before);
        expect(before.schemas).toEqual([]);
      } finally {
        await admin(`drop database if exists "${other}" with (force)`);
      }
    }
  });
});
