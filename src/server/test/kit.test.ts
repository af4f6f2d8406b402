import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PASSWORD_RESET_JOB } from '../features/auth/password-reset';
import { outboxEmails } from '../platform/db/schema';
import { createArtist } from './helpers';
import { build, drainOutbox, runJobOnce, settleJobs, waitFor } from './kit';

/** The test kit itself (decision 199): what the other tests lean on. */
const t = build();

describe('waitFor', () => {
  it('answers what the check gave once it gives something', async () => {
    let calls = 0;
    expect(await waitFor(() => (++calls >= 3 ? 'ready' : undefined), { intervalMs: 1 })).toBe('ready');
    expect(calls).toBe(3);
  });

  it('fails after its deadline, with the check’s last error or the thing it waited for', async () => {
    await expect(waitFor(() => false, { timeoutMs: 30, intervalMs: 5, what: 'the moon' })).rejects.toThrow('the moon did not hold within 30 ms');
    await expect(
      waitFor(
        () => {
          throw new Error('still broken');
        },
        { timeoutMs: 30, intervalMs: 5 },
      ),
    ).rejects.toThrow('still broken');
  });
});

describe('build', () => {
  it('hands out the app built for this file, and `as` calls as one user', async () => {
    const artist = await createArtist(t.db, { firstName: 'Ines' });
    const me = await t.as(artist)('GET', '/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: artist.id, firstName: 'Ines' });
    expect((await t.as(null)('GET', '/api/user')).statusCode).toBe(401);
  });
});

describe('jobs and the outbox', () => {
  it('runs a job here and now, then settles the queue and the outbox', async () => {
    const artist = await createArtist(t.db);
    await runJobOnce(t, PASSWORD_RESET_JOB, { email: artist.email });
    const [queued] = await t.db.select().from(outboxEmails).where(eq(outboxEmails.userId, artist.id));
    expect(queued?.kind).toBe('password_reset');
    // Without SMTP_URL the outbox's worker keeps the email as "logged": drained means no longer pending.
    await drainOutbox(t);
    const [settled] = await t.db.select().from(outboxEmails).where(eq(outboxEmails.id, queued!.id));
    expect(settled?.status).not.toBe('pending');
    // Queued through the route, the job runs on the queue's worker; settled means it ran.
    expect((await t.call('POST', '/api/password-reset', null, { email: artist.email })).statusCode).toBe(202);
    await settleJobs(t, PASSWORD_RESET_JOB);
    await drainOutbox(t);
    expect(await t.db.select().from(outboxEmails).where(eq(outboxEmails.userId, artist.id))).toHaveLength(2);
  });
});
