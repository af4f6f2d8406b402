/**
 * A child process for bench/reads.bench.ts: either the product (buildApp on a scratch database
 * with one signed-in artist and N submissions) or a bare node:http server answering the same
 * JSON bytes. It tells its parent {port, cookie, bodiesFile, database} on the IPC channel and
 * serves until killed. The product logs as in service (LOG_LEVEL, default info) to its stdout.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { buildApp } from "../../src/server/app";
import { loadConfig } from "../../src/server/config";
import { openDatabase } from "../../src/server/platform/db/client";
import {
  sessions,
  submissions,
  users,
} from "../../src/server/platform/db/schema";
import { newId, newToken } from "../../src/server/platform/ids";
import {
  DEFAULT_DECISION_DAYS,
  WAITING_STATUSES,
} from "../../src/shared/decisions";

const DECISION_DAYS_FREE = DEFAULT_DECISION_DAYS.free;
import {
  hashSessionId,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from "../../src/server/platform/sessions";

const mode = process.argv[2] as "product" | "bare";
// The bodies come through a file: the submissions list is larger than one argv entry may be.
const bodies = process.argv[3]
  ? (JSON.parse(readFileSync(process.argv[3], "utf8")) as Record<
      string,
      string
    >)
  : {};
const submissionCount = Number(process.env.BENCH_SUBMISSIONS ?? 500);

if (mode === "bare") {
  const server = http.createServer((req, res) => {
    const body = bodies[req.url ?? ""];
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
    });
    res.end(body);
  });
  server.listen(0, "127.0.0.1", () => {
    process.send!({ port: (server.address() as { port: number }).port });
  });
} else {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "hub-bench-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    ...(process.env.DATABASE_URL
      ? { DATABASE_URL: process.env.DATABASE_URL }
      : {}),
  });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(dataDir, "db"),
  });
  const app = await buildApp({ config, database, client: "none" });
  const { db } = database;
  const userId = newId();
  await db
    .insert(users)
    .values({
      id: userId,
      email: `bench-${userId}@example.com`,
      firstName: "Bench",
      lastName: "Artist",
      artistName: "The Benchmarks",
    });
  const now = Date.now();
  for (let i = 0; i < submissionCount; i += 100) {
    await db.insert(submissions).values(
      Array.from({ length: Math.min(100, submissionCount - i) }, (_, j) => {
        const status = (
          ["pending", "approved", "under_review", "completed"] as const
        )[(i + j) % 4]!;
        // Those waiting for the team have their decision clock, as the product's own writes give
        // them: without it the deadline job's first run starts 250 clocks in the middle of a
        // measurement, and each change announced drops the artist's remembered reads.
        const waiting = (WAITING_STATUSES as readonly string[]).includes(
          status,
        );
        return {
          id: newId(),
          userId,
          submissionMethod: "link" as const,
          musicUrl: "https://soundcloud.com/bench/track",
          releaseStatus: "released" as const,
          artistName: "The Benchmarks",
          songTitle: `Track ${i + j}`,
          hasLyrics: false,
          aiUsage: false,
          videoStyle: "non-custom" as const,
          pricingTier: "free" as const,
          termsAccepted: true,
          status,
          amount: "0.00",
          createdAt: new Date(now - (i + j) * 60_000),
          ...(waiting
            ? {
                decisionClockAt: new Date(now),
                decisionDueAt: new Date(now + DECISION_DAYS_FREE * 86_400_000),
              }
            : {}),
        };
      }),
    );
  }
  const sid = newToken();
  await db.insert(sessions).values({
    sid: hashSessionId(sid),
    userId,
    sess: { userId, via: "password", createdAt: new Date().toISOString() },
    expire: new Date(Date.now() + SESSION_TTL_MS),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const cookie = `${SESSION_COOKIE}=${app.signCookie(sid)}`;
  const port = (app.server.address() as { port: number }).port;
  const out: Record<string, string> = {};
  for (const url of ["/api/user", "/api/submissions", "/api/stats"]) {
    const res = await app.inject({ url, headers: { cookie } });
    if (res.statusCode === 200) out[url] = res.body;
  }
  const bodiesFile = path.join(dataDir, "bodies.json");
  writeFileSync(bodiesFile, JSON.stringify(out));
  process.send!({ port, cookie, bodiesFile, database: database.kind });
}
