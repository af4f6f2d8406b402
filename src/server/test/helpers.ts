import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AppOptions } from '../app';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { hashPassword } from '../features/auth/password';
import { openDatabase, type Database, type Db } from '../platform/db/client';
import { isPaidTier, tierAmount, type PricingTier } from '@shared/submissions';
import { sessions, submissions, users, type SubmissionRow, type UserRow } from '../platform/db/schema';
import { newId, newToken } from '../platform/ids';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../platform/sessions';
import { withDatabase } from './global-setup';

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

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/**
 * The whole API on a fresh database, built without listening; `env` overrides configuration,
 * `options` passes a logger, an onRoute listener, a clock, a client build or a body-progress window to buildApp.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: Pick<AppOptions, 'logger' | 'onRoute' | 'clock' | 'client' | 'clientDir' | 'bodyProgress'> = {},
): Promise<TestApp> {
  const { database, dataDir, drop } = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const app = await buildApp({ config, database, client: 'none', logger: false, ...options });
  await app.ready();
  return {
    app,
    db: database.db,
    database,
    config,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/**
 * Another server instance on the same database: on PostgreSQL with a connection pool of its own
 * (as another process would have); on the embedded database, the same in-process engine.
 */
export async function secondInstance(first: TestApp): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  let database: Database = first.database;
  let ownDatabase = false;
  if (first.database.kind === 'postgres') {
    database = await openDatabase({ databaseUrl: first.database.connectionString!, pgliteDir: '', migrate: false });
    ownDatabase = true;
  }
  const app = await buildApp({ config: first.config, database, client: 'none', logger: false });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      if (ownDatabase) await database.close();
    },
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
  return row!;
}

/** A signed session cookie for the user, as the browser would hold it after signing in. */
export async function sessionCookie(app: FastifyInstance, db: Db, user: UserRow): Promise<string> {
  const sid = newToken();
  await db.insert(sessions).values({
    sid,
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
