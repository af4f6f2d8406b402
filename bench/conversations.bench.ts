/**
 * The admin's conversations (issue 16): one admin with 10,000 conversations (one artist each,
 * three messages each, a third of them unread). Times the first page of
 * GET /api/messages/conversations against what the Messages screen loaded before, the whole
 * GET /api/messages, through app.inject (no network): p50 and p99 of 40 calls each. On the
 * embedded database, then on PostgreSQL when reachable (scratch database).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { migrationsFolder, openDatabase } from '../src/server/platform/db/client';
import { messages, sessions, users } from '../src/server/platform/db/schema';
import { newId, newToken } from '../src/server/platform/ids';
import { hashSessionId, SESSION_COOKIE, SESSION_TTL_MS } from '../src/server/platform/sessions';
import { createScratchDatabase, PG_URL, redact } from './support/scratch-database';

/** The data statements of migration 0022, which fold person-to-person conversations into team ones. */
/** Found by its name, not its number: the number may change when branches merge. */
const TEAM_INBOX_MIGRATION = readdirSync(migrationsFolder).find((f) => f.endsWith('_team-inbox.sql'))!;
const FOLD_STATEMENTS = readFileSync(path.join(migrationsFolder, TEAM_INBOX_MIGRATION), 'utf8')
  .split('--> statement-breakpoint')
  .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
  .filter((s) => /^(UPDATE|INSERT|DELETE)/.test(s));

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
const PER_CONVERSATION = 3;
const CALLS = 40;

export default async function benchConversations(): Promise<void> {
  await run('embedded (PGlite)');
  const scratch = await createScratchDatabase('conversations');
  if (!scratch) {
    console.log(`PostgreSQL at ${redact(PG_URL)} unreachable: skipped.`);
    return;
  }
  try {
    await run('PostgreSQL', scratch.url);
  } finally {
    await scratch.drop();
  }
}

async function run(label: string, databaseUrl?: string): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-conversations-'));
  const config = loadConfig({
    DATA_DIR: dir,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0',
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(dir, 'db') });
  const app = await buildApp({ config, database, client: 'none', logger: false });
  try {
    const { db } = database;
    const adminId = newId();
    await db.insert(users).values({ id: adminId, email: `admin-${adminId}@example.com`, firstName: 'Bench', role: 'admin' });
    const start = Date.now() - CONVERSATIONS * PER_CONVERSATION * 1000;
    for (let i = 0; i < CONVERSATIONS; i += 500) {
      const artists = Array.from({ length: Math.min(500, CONVERSATIONS - i) }, (_, j) => ({
        id: newId(),
        email: `artist-${i + j}-${newToken(4)}@example.com`.toLowerCase(),
        firstName: 'Artist',
        artistName: `Artist ${i + j}`,
      }));
      await db.insert(users).values(artists);
      await db.insert(messages).values(
        artists.flatMap((artist, j) =>
          Array.from({ length: PER_CONVERSATION }, (_, k) => {
            const fromArtist = k !== 1;
            return {
              id: newId(),
              fromUserId: fromArtist ? artist.id : adminId,
              toUserId: fromArtist ? adminId : artist.id,
              content: `Message ${k} of conversation ${i + j}`,
              isRead: (i + j) % 3 !== 0 || !fromArtist,
              createdAt: new Date(start + ((i + j) * PER_CONVERSATION + k) * 1000),
            };
          }),
        ),
      );
    }
    // The conversations rows as the migration's one-time backfill makes them (decision 141).
    await db.execute(sql`
      insert into conversations (user_id, other_user_id, last_message_id, last_message_at)
      select distinct on (user_id, other_user_id) user_id, other_user_id, id, created_at from (
        select from_user_id as user_id, to_user_id as other_user_id, id, created_at from messages
        union all select to_user_id, from_user_id, id, created_at from messages) m
      order by user_id, other_user_id, created_at desc, id desc`);
    // Then the fold of migration 0022 (decision 159): the same messages as team conversations.
    for (const statement of FOLD_STATEMENTS) await db.execute(sql.raw(statement));
    await db.execute(sql`analyze`);
    const sid = newToken();
    await db.insert(sessions).values({
      sid: hashSessionId(sid),
      userId: adminId,
      sess: { userId: adminId, via: 'password', createdAt: new Date().toISOString() },
      expire: new Date(Date.now() + SESSION_TTL_MS),
    });
    const cookie = `${SESSION_COOKIE}=${app.signCookie(sid)}`;

    const time = async (url: string, calls: number) => {
      const ms: number[] = [];
      let bytes = 0;
      for (let i = 0; i < calls; i++) {
        const t0 = performance.now();
        const res = await app.inject({ url, headers: { cookie } });
        ms.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
        bytes = res.rawPayload.length;
      }
      ms.sort((a, b) => a - b);
      return { p50: ms[Math.floor(ms.length / 2)]!, p99: ms[Math.min(ms.length - 1, Math.ceil(ms.length * 0.99) - 1)]!, bytes };
    };
    await time('/api/messages/conversations', 3);
    const page = await time('/api/messages/conversations', CALLS);
    // The team's filters (issue 25 part 5) read each artist's latest submission's assignee.
    const unassigned = await time('/api/messages/conversations?filter=unassigned', CALLS);
    const whole = await time('/api/messages', 5);
    console.log(`\n${label}: ${CONVERSATIONS} conversations, ${CONVERSATIONS * PER_CONVERSATION} messages for one admin`);
    console.log(`GET /api/messages/conversations (first page): p50 ${page.p50.toFixed(1)} ms, p99 ${page.p99.toFixed(1)} ms, ${(page.bytes / 1000).toFixed(0)} KB`);
    console.log(`GET /api/messages/conversations?filter=unassigned: p50 ${unassigned.p50.toFixed(1)} ms, p99 ${unassigned.p99.toFixed(1)} ms`);
    console.log(`GET /api/messages (whole history, before):    p50 ${whole.p50.toFixed(1)} ms, p99 ${whole.p99.toFixed(1)} ms, ${(whole.bytes / 1e6).toFixed(1)} MB`);
  } finally {
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
