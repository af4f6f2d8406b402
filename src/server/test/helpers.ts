import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AppOptions } from '../app';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { hashPassword } from '../features/auth/password';
import { openDatabase, type Database, type Db } from '../platform/db/client';
import { isPaidTier, tierAmount, type PricingTier } from '@shared/submissions';
import { outboxEmails, sessions, submissions, uploads, users, type SubmissionRow, type UserRow } from '../platform/db/schema';
import { newId, newToken } from '../platform/ids';
import { hashSessionId, SESSION_COOKIE, SESSION_TTL_MS } from '../platform/sessions';
import { eq } from 'drizzle-orm';
import { WAITING_STATUSES } from '@shared/decisions';
import { startDecisionClock } from '../domain/submission/decision-date';
import { mp3Bytes, pngBytes } from './file-fixtures';
import { withDatabase } from './global-setup';
import { startTestSmtpServer, type TestSmtpServer } from './smtp-test-server';

export const TEST_ORIGIN = 'http://localhost:5000';
export const TEST_PASSWORD = 'correct-horse-42';

/** A fresh, migrated database of its own, cloned from the template that global setup made. */
export async function createTestDatabase(): Promise<{ database: Database; dataDir: string; drop(): Promise<void> }> {
  const target = inject('testDatabase');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hub-test-'));
  if (target.kind === 'pglite') {
    cpSync(target.templateDir, path.join(dataDir, 'db'), { recursive: true });
    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    return {
      database,
      dataDir,
      drop: async () => {
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `hub_test_${process.pid}_${newToken(6).toLowerCase().replace(/[^a-z0-9]/g, '')}`;
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  await admin.query(`create database "${name}" template "${target.template}"`);
  await admin.end();
  const databaseUrl = withDatabase(target.url, name);
  const database = await openDatabase({ databaseUrl, pgliteDir: '' });
  return {
    database,
    dataDir,
    drop: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: target.url });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who a request comes from: a session cookie, a user (signed in on first use), or nobody (null or undefined). */
export type Caller = string | UserRow | null | undefined;

/**
 * The one kit of the API tests (in the spirit of fastify/demo's test/helper.ts): the app on a
 * database of its own, and requests made the way the site's own pages make them.
 */
export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: Database;
  config: Config;
  /** The SMTP server the app sends to; only with `createTestApp(env, { smtp: true })`. */
  smtp: TestSmtpServer;
  /**
   * A request as the site's pages send it: the site's Origin, the caller's session cookie, a
   * JSON body; `headers` add to (or override) those.
   */
  call(method: Method, url: string, as?: Caller, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** app.inject as `as` (fastify/demo's injectWithLogin): its cookie and the site's Origin are added to `options.headers`. */
  injectAs(as: Caller, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** A new session for the user, as signing in leaves one: its cookie. */
  signIn(user: UserRow): Promise<string>;
  /** Signs in through POST /api/login: the session cookie, or null when the sign-in is refused. */
  logIn(email: string, password: string, headers?: Record<string, string>): Promise<string | null>;
  /** A music or image file uploaded and checked by `as`, as the wizard gets it: its object path. */
  uploadFile(kind: 'music' | 'image', as: Caller): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions extends Pick<AppOptions, 'logger' | 'onRoute' | 'clock' | 'client' | 'clientDir' | 'bodyProgress' | 'webhookPollMs'> {
  /** Start a test SMTP server and send the app's email to it (`t.smtp`); it closes with the app. */
  smtp?: boolean;
  /**
   * Give every `call` a client address of its own, so that per-address rate limits only count
   * where a test means them to.
   */
  addressPerCall?: boolean;
}

/**
 * The whole API on a fresh database, built without listening; `env` overrides configuration,
  * `options` passes a logger, an onRoute listener, a clock, a client build or a body-progress
  * window to buildApp, and asks for an SMTP server.
  */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { smtp: withSmtp = false, addressPerCall = false, ...appOptions } = options;
  const smtp = withSmtp ? await startTestSmtpServer() : undefined;
  const { database, dataDir, drop } = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    ...(smtp ? { SMTP_URL: smtp.url } : {}),
    ...env,
  });
  const app = await buildApp({ config, database, client: 'none', logger: false, ...appOptions });
  await app.ready();
  const db = database.db;
  const cookies = new Map<string, string>();
  let calls = 0;

  const signIn = (user: UserRow) => sessionCookie(app, db, user);
  const cookieOf = async (as: Caller): Promise<string | undefined> => {
    if (!as) return undefined;
    if (typeof as === 'string') return as;
    if (!cookies.has(as.id)) cookies.set(as.id, await signIn(as));
    return cookies.get(as.id);
  };
  const injectAs = async (as: Caller, options: InjectOptions) => {
    const cookie = await cookieOf(as);
    return app.inject({ ...options, headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}), ...options.headers } });
  };
  const call: TestApp['call'] = (method, url, as, payload, headers = {}) => {
    const n = ++calls;
    return injectAs(as, {
      method,
      url,
      ...(addressPerCall ? { remoteAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } : {}),
      headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  };

  return {
    app,
    db,
    database,
    config,
    get smtp(): TestSmtpServer {
      if (!smtp) throw new Error('No SMTP server: build the app with createTestApp(env, { smtp: true })');
      return smtp;
    },
    call,
    injectAs,
    signIn,
    async logIn(email, password, headers = {}) {
      const res = await call('POST', '/api/login', null, { email, password }, headers);
      return res.statusCode === 200 ? cookieFrom(res) : null;
    },
    async uploadFile(kind, as) {
      const issued = await call('POST', '/api/objects/upload', as);
      const url = new URL(issued.json().uploadURL);
      const bytes = kind === 'music' ? mp3Bytes() : pngBytes();
      const put = await injectAs(as, {
        method: 'PUT',
        url: url.pathname + url.search,
        headers: { 'content-type': 'application/octet-stream' },
        payload: bytes,
      });
      expect(put.statusCode).toBe(200);
      const res =
        kind === 'music'
          ? await call('PUT', '/api/music-files', as, { musicFileURL: url.toString(), fileName: 'night.mp3', fileSize: bytes.length })
          : await call('PUT', '/api/artwork-files', as, { artworkFileURL: url.toString(), fileName: 'cover.png' });
      expect(res.statusCode).toBe(200);
      return res.json().objectPath;
    },
    close: async () => {
      await app.close();
      await drop();
      await smtp?.close();
    },
  };
}

/**
 * Another server instance on the same database: on PostgreSQL with a connection pool of its own
 * (as another process would have); on the embedded database, the same in-process engine.
 */
export async function secondInstance(
  first: TestApp,
  options: { config?: Config; webhookPollMs?: number } = {},
): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  let database: Database = first.database;
  let ownDatabase = false;
  if (first.database.kind === 'postgres') {
    database = await openDatabase({ databaseUrl: first.database.connectionString!, pgliteDir: '', migrate: false });
    ownDatabase = true;
  }
  const app = await buildApp({
    config: options.config ?? first.config,
    database,
    client: 'none',
    logger: false,
    ...(options.webhookPollMs ? { webhookPollMs: options.webhookPollMs } : {}),
  });
  await app.ready();
  // Closing twice is closing once: a test may stop the instance to assert on what it did, then close it again in `finally`.
  let closing: Promise<void> | undefined;
  return {
    app,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        if (ownDatabase) await database.close();
      })()),
  };
}

let passwordHash: Promise<string> | undefined;
let counter = 0;

/** A user made directly in the database (fast: one shared password hash), unique per call. */
export async function createUser(db: Db, overrides: Partial<typeof users.$inferInsert> = {}): Promise<UserRow> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const n = `${Date.now().toString(36)}${(counter++).toString(36)}${newToken(3).toLowerCase()}`;
  const [user] = await db
    .insert(users)
    .values({
      id: newId(),
      email: `artist-${n}@example.com`.toLowerCase(),
      password: await passwordHash,
      firstName: 'Test',
      lastName: 'Artist',
      ...overrides,
    })
    .returning();
  return user!;
}

export const createArtist = (db: Db, overrides: Partial<typeof users.$inferInsert> = {}) =>
  createUser(db, { role: 'user', ...overrides });
export const createAdmin = (db: Db, overrides: Partial<typeof users.$inferInsert> = {}) =>
  createUser(db, { role: 'admin', firstName: 'Label', lastName: 'Admin', ...overrides });

/**
 * A submission made directly in the database, as POST /api/submissions would leave it for its
 * tier (free: pending; paid: payment_pending with the tier's amount). `overrides` win.
 */
export async function createSubmissionRow(
  db: Db,
  owner: UserRow,
  overrides: Partial<typeof submissions.$inferInsert> = {},
): Promise<SubmissionRow> {
  const tier: PricingTier = overrides.pricingTier ?? 'free';
  const paid = isPaidTier(tier);
  const [row] = await db
    .insert(submissions)
    .values({
      id: newId(),
      userId: owner.id,
      submissionMethod: 'link',
      musicUrl: 'https://example.com/track',
      releaseStatus: 'unreleased',
      artistName: owner.artistName ?? 'Artist',
      songTitle: 'Night Drive',
      hasLyrics: false,
      aiUsage: false,
      videoStyle: 'non-custom',
      pricingTier: tier,
      termsAccepted: true,
      status: paid ? 'payment_pending' : 'pending',
      paymentStatus: paid ? 'pending' : null,
      amount: tierAmount(tier),
      ...overrides,
    })
    .returning();
  // As the product sends it to the label: waiting for the team, its decision clock runs (CONTRACT
  // §26). Without it the clock's minute run would start it in the middle of a test that compares
  // the database at rest. A row dated in the past is counted from now, as the minute run counts a
  // backlog: from its creation date it would already be late, and the late run would close it.
  if ((WAITING_STATUSES as readonly string[]).includes(row!.status) && overrides.decisionDueAt === undefined) {
    const now = new Date(Math.max(Date.now(), row!.createdAt.getTime()));
    await db.transaction((tx) => startDecisionClock(tx, row!.id, now));
    const [clocked] = await db.select().from(submissions).where(eq(submissions.id, row!.id));
    return clocked!;
  }
  return row!;
}

/** A signed session cookie for the user, as the browser would hold it after signing in. */
export async function sessionCookie(app: FastifyInstance, db: Db, user: UserRow): Promise<string> {
  const sid = newToken();
  await db.insert(sessions).values({
    sid: hashSessionId(sid),
    userId: user.id,
    sess: { userId: user.id, via: 'password', createdAt: new Date().toISOString() },
    expire: new Date(Date.now() + SESSION_TTL_MS),
  });
  return `${SESSION_COOKIE}=${app.signCookie(sid)}`;
}

/** The `name=value` pair of a response's Set-Cookie for the session. */
export function cookieFrom(response: LightMyRequestResponse): string {
  const set = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!set) throw new Error(`No ${SESSION_COOKIE} cookie in the response`);
  return `${set.name}=${set.value}`;
}

/** An address no other test uses (the domain as written: sign-in must not care about its case). */
export const uniqueEmail = (prefix = 'artist', domain = 'example.com') =>
  `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}@${domain}`;

/** The body of POST /api/submissions for a free submission by link, as the wizard sends it; `overrides` win. */
export const linkSubmission = (overrides: Record<string, unknown> = {}) => ({
  submissionMethod: 'link',
  musicUrl: 'https://example.com/track',
  releaseStatus: 'unreleased',
  artistName: 'Artist',
  songTitle: 'Night Drive',
  hasLyrics: false,
  aiUsage: false,
  videoStyle: 'non-custom',
  pricingTier: 'free',
  termsAccepted: true,
  ...overrides,
});

/** A checked upload row of the user, as the uploads feature leaves it (no bytes in the store): its object path. */
export async function createStoredUpload(db: Db, owner: UserRow, overrides: Partial<typeof uploads.$inferInsert> = {}) {
  const id = newId();
  await db.insert(uploads).values({
    id,
    userId: owner.id,
    status: 'stored',
    size: 4,
    contentType: 'audio/mpeg',
    uploadExpiresAt: new Date(Date.now() + 60_000),
    ...overrides,
  });
  return { id, path: `/objects/uploads/${id}` };
}

/** The user's emails in the outbox, whatever their state. */
export const outboxRowsOf = (db: Db, userId: string) => db.select().from(outboxEmails).where(eq(outboxEmails.userId, userId));

/** The headers of a request from the site's pages: its Origin, and the session cookie when there is one. */
export const headers = (cookie?: string | null) => (cookie ? { cookie, origin: TEST_ORIGIN } : { origin: TEST_ORIGIN });
