import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childServerOnFreshDatabase, sessionOf } from '../test/child-server';
import { linkSubmission } from '../test/helpers';

/**
 * Issue 9 part 8: the real server as a child process, killed with SIGKILL in the middle of a
 * burst of submissions and then of messages, restarted on the same data (the embedded database's
 * directory, or the PostgreSQL database): every write it acknowledged must be there.
 * (The mid-upload crash belongs to the uploads' own tests.)
 */
const ADMIN = { email: 'crash-admin@label.example', password: 'crash-admin-pass-1' };
const ARTIST = { email: 'crash-artist@example.com', password: 'crash-artist-pass-1', firstName: 'Cra', lastName: 'Sh' };
const IN_FLIGHT = 8;

let server: Awaited<ReturnType<typeof childServerOnFreshDatabase>>;

beforeAll(async () => {
  server = await childServerOnFreshDatabase({
    SESSION_SECRET: 'crash-test-secret-crash-test-secret-0123',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
}, 120_000);
afterAll(() => server?.close());

const startServer = () => server.start();
const killServer = () => server.kill();
const call: typeof server.call = (...args) => server.call(...args);

/**
 * Keeps IN_FLIGHT writes going until `ackedBeforeKill` have been acknowledged, then kills the
 * server while the rest are in flight. Answers the ids of every acknowledged write.
 */
async function burstAndKill(write: (n: number) => Promise<{ status: number; body: Record<string, unknown> | null }>, ackedBeforeKill: number) {
  const acknowledged: string[] = [];
  let next = 0;
  let killing: Promise<void> | undefined;
  let lost = 0;
  const worker = async () => {
    while (!killing) {
      const n = next++;
      try {
        const { status, body } = await write(n);
        if (status === 201) acknowledged.push(String(body!.id));
      } catch {
        lost++;
      }
      if (acknowledged.length >= ackedBeforeKill) killing ??= killServer();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  await killing;
  return { acknowledged, attempted: next, unanswered: lost };
}

describe(`kill -9 mid-write (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'})`, () => {
  it('keeps every acknowledged submission and message across a kill -9 and a restart on the same data', async () => {
    await startServer();
    const registered = await call('POST', '/api/register', undefined, ARTIST);
    expect(registered.status).toBe(201);
    const artistCookie = sessionOf(registered.res);
    const adminLogin = await call('POST', '/api/login', undefined, ADMIN);
    expect(adminLogin.status).toBe(200);
    const adminId = String(adminLogin.body!.id);

    const submissions = await burstAndKill(
      (n) =>
        call('POST', '/api/submissions', artistCookie, linkSubmission({ musicUrl: 'https://music.example/track', artistName: 'Crash Test', songTitle: `Take ${n}` })),
      25,
    );

    await startServer();
    const listed = await call('GET', '/api/submissions?limit=100', artistCookie);
    expect(listed.status).toBe(200);
    const storedSubmissions = new Set((listed.body as unknown as { id: string }[]).map((s) => s.id));
    expect(submissions.acknowledged.filter((id) => !storedSubmissions.has(id))).toEqual([]);

    const messages = await burstAndKill((n) => call('POST', '/api/messages', artistCookie, { toUserId: adminId, content: `Message ${n}` }), 40);

    await startServer();
    const thread = await call('GET', '/api/messages', artistCookie);
    expect(thread.status).toBe(200);
    const storedMessages = new Set((thread.body as unknown as { id: string }[]).map((m) => m.id));
    expect(messages.acknowledged.filter((id) => !storedMessages.has(id))).toEqual([]);
    await killServer();

    expect(submissions.acknowledged.length).toBeGreaterThanOrEqual(25);
    expect(messages.acknowledged.length).toBeGreaterThanOrEqual(40);
    console.info(
      `crash test: submissions ${submissions.acknowledged.length} acknowledged of ${submissions.attempted} sent (${submissions.unanswered} cut off by the kill), all ${storedSubmissions.size} stored after restart; ` +
        `messages ${messages.acknowledged.length} acknowledged of ${messages.attempted} sent (${messages.unanswered} cut off), all present after restart`,
    );
  }, 300_000);
});
