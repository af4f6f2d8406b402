import { isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESIGN_DISCLOSURE, type Owner } from '@shared/rights';
import type { SubmissionListItem } from '@shared/submission-schemas';
import { submissions, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, secondInstance, sessionCookie, type TestApp } from '../../test/helpers';
import { waitFor } from '../../test/kit';

/**
 * GET /api/submissions carries what a dashboard row shows beside each submission, so a row reads
 * nothing of its own (issue 50): its place in the team's queue while it waits (CONTRACT §26), in
 * the desk's one order, and whether its licence agreement waits for the artist's hand (§22).
 */
let t: TestApp;
let artist: UserRow;
let other: UserRow;
let admin: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  artist = await createArtist(t.db, { artistName: 'Mara Lindqvist' });
  other = await createArtist(t.db, { artistName: 'Jonah Reyes' });
  admin = await createAdmin(t.db);
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS);
const listOf = async (as: UserRow, app = t.app) => {
  const res = await app.inject({
    url: '/api/submissions',
    headers: { cookie: await sessionCookie(t.app, t.db, as) },
  });
  expect(res.statusCode).toBe(200);
  return res.json<SubmissionListItem[]>();
};
const byTitle = (list: SubmissionListItem[]) => Object.fromEntries(list.map((item) => [item.songTitle, item]));
const placesOf = (list: SubmissionListItem[]) => Object.fromEntries(list.map((item) => [item.songTitle, item.queuePosition]));

describe('queue places in the list', () => {
  it('numbers the waiting ones in the desk’s order (paid before free, then the soonest date), as the submission alone says, and moves them when the team decides another artist’s', async () => {
    // Only this test's submissions wait.
    await t.db.update(submissions).set({ decidedAt: new Date() }).where(isNull(submissions.decidedAt));
    // Paid before free whatever the dates; among each, the soonest decision date first.
    const premium = await createSubmissionRow(t.db, other, {
      songTitle: 'Saltwater',
      pricingTier: 'premium',
      status: 'pending',
      decisionDueAt: inDays(3),
    });
    await createSubmissionRow(t.db, artist, {
      songTitle: 'Glass Harbour',
      pricingTier: 'basic',
      status: 'under_review',
      decisionDueAt: inDays(5),
    });
    await createSubmissionRow(t.db, artist, {
      songTitle: 'Low Tide',
      status: 'under_review',
      decisionDueAt: inDays(0.5),
    });
    await createSubmissionRow(t.db, other, {
      songTitle: 'Northbound',
      decisionDueAt: inDays(1),
    });
    await createSubmissionRow(t.db, artist, {
      songTitle: 'Paper Lanterns',
      decisionDueAt: inDays(2),
    });
    // Not waiting: a draft, an unpaid plan, a decided one.
    await createSubmissionRow(t.db, artist, {
      songTitle: 'Unfinished',
      status: 'draft',
      decisionDueAt: null,
    });
    await createSubmissionRow(t.db, artist, {
      songTitle: 'Unpaid',
      pricingTier: 'basic',
    });
    await createSubmissionRow(t.db, artist, {
      songTitle: 'Turned Down',
      status: 'rejected',
      decisionDueAt: inDays(1),
      decidedAt: new Date(),
    });

    const list = await listOf(artist);
    expect(placesOf(list)).toEqual({
      'Glass Harbour': 2,
      'Low Tide': 3,
      'Paper Lanterns': 5,
      Unfinished: null,
      Unpaid: null,
      'Turned Down': null,
    });
    expect(placesOf(await listOf(other))).toEqual({
      Saltwater: 1,
      Northbound: 4,
    });
    // The submission read alone, and the desk's decision order, agree: one order.
    for (const item of list) {
      const one = await t.call('GET', `/api/submissions/${item.id}`, artist);
      expect(one.json().queue.position).toBe(item.queuePosition);
    }
    const desk = await t.call('GET', '/api/admin/submissions?sort=decision&pageSize=10', admin);
    expect(
      desk
        .json()
        .submissions.slice(0, 5)
        .map((s: { songTitle: string }) => s.songTitle),
    ).toEqual(['Saltwater', 'Glass Harbour', 'Low Tide', 'Northbound', 'Paper Lanterns']);

    // The artist's first page is remembered now; the team decides Jonah's: the artist's places
    // move at the next read, long before the remembered answer's 10 s are up.
    const decidedAt = Date.now();
    expect((await t.call('PATCH', `/api/admin/submissions/${premium.id}/status`, admin, { status: 'approved' })).statusCode).toBe(200);
    await waitFor(async () => placesOf(await listOf(artist))['Glass Harbour'] === 1, { timeoutMs: 5000, what: 'the moved place' });
    expect(Date.now() - decidedAt).toBeLessThan(5000);
    expect(placesOf(await listOf(artist))).toMatchObject({
      'Glass Harbour': 1,
      'Low Tide': 2,
      'Paper Lanterns': 4,
    });
  });
});

describe('the agreement’s state in the list', () => {
  const sign = (id: string, onBehalf?: boolean) =>
    t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, {
      name: 'Mara Lindqvist',
      consent: true,
      disclosureVersion: ESIGN_DISCLOSURE.version,
      ...(onBehalf ? { onBehalf } : {}),
    });
  const owners: Owner[] = [
    { name: 'Mara Lindqvist', email: null, role: 'artist', share: 50 },
    { name: 'Sam Rivera', email: 'sam@example.com', role: 'writer', share: 30 },
    { name: 'Jo Kim', email: null, role: 'producer', share: 20 },
  ];

  it('waits for the artist from approval on, until they signed and signed for the owners without an email; not before approval', async () => {
    const shared = await createSubmissionRow(t.db, artist, {
      songTitle: 'Shared Song',
      status: 'approved',
      decidedAt: new Date(),
      owners,
    });
    const alone = await createSubmissionRow(t.db, artist, {
      songTitle: 'Alone Song',
      status: 'completed',
      decidedAt: new Date(),
    });
    const withEmail = await createSubmissionRow(t.db, artist, {
      songTitle: 'Mailed Song',
      status: 'approved',
      decidedAt: new Date(),
      owners: owners.slice(0, 2).map((o, i) => ({ ...o, share: i === 0 ? 70 : 30 })),
    });
    await createSubmissionRow(t.db, artist, {
      songTitle: 'Still Waiting',
      decisionDueAt: inDays(2),
    });
    const awaits = async () => Object.fromEntries(Object.entries(byTitle(await listOf(artist))).map(([title, item]) => [title, item.agreementAwaitsArtist]));

    // Before anyone read the agreements: none is made yet, and each waits for the artist as it would.
    expect(await awaits()).toMatchObject({
      'Shared Song': true,
      'Alone Song': true,
      'Mailed Song': true,
      'Still Waiting': false,
    });
    expect((await t.call('GET', `/api/submissions/${shared.id}/agreement`, artist)).statusCode).toBe(200);
    expect((await awaits())['Shared Song']).toBe(true);

    // The artist signs their own line: Jo Kim, without an email, still needs their hand.
    expect((await sign(shared.id)).statusCode).toBe(200);
    expect((await awaits())['Shared Song']).toBe(true);
    expect((await sign(shared.id, true)).statusCode).toBe(200);
    // A co-owner with an email signs from their link: nothing more is the artist's to do.
    expect((await sign(withEmail.id)).statusCode).toBe(200);
    expect((await sign(alone.id)).statusCode).toBe(200);
    expect(await awaits()).toMatchObject({
      'Shared Song': false,
      'Alone Song': false,
      'Mailed Song': false,
      'Still Waiting': false,
    });
  });

  it('is forgotten on the other instance when the artist signs on this one', async () => {
    const song = await createSubmissionRow(t.db, artist, {
      songTitle: 'Two Rooms',
      status: 'approved',
      decidedAt: new Date(),
    });
    const second = await secondInstance(t);
    try {
      // Remembered on the second instance, then signed through the first.
      expect(byTitle(await listOf(artist, second.app))['Two Rooms']!.agreementAwaitsArtist).toBe(true);
      expect((await sign(song.id)).statusCode).toBe(200);
      await waitFor(async () => byTitle(await listOf(artist, second.app))['Two Rooms']!.agreementAwaitsArtist === false, {
        timeoutMs: 5000,
        what: 'the signature on the other instance',
      });
    } finally {
      await second.close();
    }
  });
});
