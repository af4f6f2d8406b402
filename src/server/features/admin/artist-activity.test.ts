import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnseenActivity } from '@shared/artist-activity';
import type { Delivery, DeliveryComment } from '@shared/production';
import { recordArtistActivity } from '../../domain/submission/artist-activity';
import type { UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';
import { deliverableObjectPath } from '../../test/production-fixtures';
import { listenOnLoopback, openSocket, type TestSocket } from '../../test/test-sockets';

/** Issue 33 part 4: the team hears the artist, live and as a count of what each admin has not seen. */

let t: TestApp;
let wsUrl: string;
let admin: UserRow;
let adminCookie: string;
let artist: UserRow;
let artistCookie: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  wsUrl = await listenOnLoopback(t.app);
  admin = await createAdmin(t.db, { firstName: 'Lena', lastName: 'Ortiz' });
  adminCookie = await t.signIn(admin);
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  artistCookie = await t.signIn(artist);
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await t?.close();
});

const call: TestApp['call'] = (...args) => t.call(...args);

async function unseen(cookie: string, submissionId: string) {
  const res = await call('GET', '/api/admin/activity', cookie);
  expect(res.statusCode).toBe(200);
  const body = res.json<UnseenActivity>();
  expect(body.total).toBe(body.submissions.reduce((sum, s) => sum + s.count, 0));
  return body.submissions.find((s) => s.submissionId === submissionId);
}

async function submissionWithDelivery() {
  const sub = await createSubmissionRow(t.db, artist, { status: 'in_creation', songTitle: `Cut ${Math.random().toString(36).slice(2, 7)}` });
  const objectPaths = [await deliverableObjectPath(t.app, adminCookie, 'audio')];
  const res = await call('POST', `/api/admin/submissions/${sub.id}/deliverables`, adminCookie, { objectPaths, note: null });
  expect(res.statusCode).toBe(201);
  const delivery = res.json<Delivery>();
  return { sub, delivery, base: `/api/submissions/${sub.id}/deliveries/${delivery.id}` };
}

describe('artist activity', () => {
  it('a comment, a reply and a cut approval reach every admin live and count until seen; the team’s own comments do not', async () => {
    const { sub, base } = await submissionWithDelivery();
    const [adminSocket, artistSocket] = await Promise.all([adminCookie, artistCookie].map((cookie) => openSocket(wsUrl, { cookie, origin: 'http://localhost:5000' })));
    sockets.push(adminSocket!, artistSocket!);
    for (const s of [adminSocket!, artistSocket!]) await s.waitFor((e) => e.type === 'ready');

    const comment = (await call('POST', `${base}/comments`, artistCookie, { text: 'Too dark at 1:02', atSeconds: 62 })).json<DeliveryComment>();
    await adminSocket!.waitFor((e) => e.type === 'artist_activity' && (e as unknown as { kind: string }).kind === 'delivery_comment');
    expect((await call('POST', `${base}/comments`, adminCookie, { text: 'Brighter now', replyTo: comment.id })).statusCode).toBe(201);
    expect((await call('POST', `${base}/comments`, artistCookie, { text: 'Thanks', replyTo: comment.id })).statusCode).toBe(201);
    await adminSocket!.waitFor((e) => e.type === 'artist_activity' && (e as unknown as { kind: string }).kind === 'reply');
    expect((await call('POST', `${base}/approve`, artistCookie)).statusCode).toBe(200);
    const approved = await adminSocket!.waitFor<{ type: string; submissionId: string; kind: string }>(
      (e) => e.type === 'artist_activity' && (e as unknown as { kind: string }).kind === 'cut_approved',
    );
    expect(approved.submissionId).toBe(sub.id);

    expect(await unseen(adminCookie, sub.id)).toMatchObject({ count: 3, latestKind: 'cut_approved', songTitle: sub.songTitle, gone: false });
    // The team's activity is not news to the team, nor is the artist told of their own.
    expect(artistSocket!.events.filter((e) => e.type === 'artist_activity')).toEqual([]);
  });

  it('seeing a submission clears it for that admin only, and what comes later counts again', async () => {
    const { sub, base } = await submissionWithDelivery();
    const colleague = await createAdmin(t.db, { firstName: 'Ines', lastName: 'Park' });
    const colleagueCookie = await t.signIn(colleague);
    expect((await call('POST', `${base}/comments`, artistCookie, { text: 'One thing' })).statusCode).toBe(201);
    expect(await unseen(adminCookie, sub.id)).toMatchObject({ count: 1, latestKind: 'delivery_comment' });

    const seen = await call('POST', '/api/admin/activity/seen', adminCookie, { submissionIds: [sub.id] });
    expect(seen.statusCode).toBe(204);
    expect(await unseen(adminCookie, sub.id)).toBeUndefined();
    expect(await unseen(colleagueCookie, sub.id)).toMatchObject({ count: 1 });

    expect((await call('POST', `${base}/comments`, artistCookie, { text: 'And another' })).statusCode).toBe(201);
    expect(await unseen(adminCookie, sub.id)).toMatchObject({ count: 1 });
    expect(await unseen(colleagueCookie, sub.id)).toMatchObject({ count: 2 });
  });

  it('a withdrawal is heard though the submission is gone; a draft deleted is not', async () => {
    const sent = await createSubmissionRow(t.db, artist, { status: 'pending', songTitle: 'Gone Tomorrow' });
    const draft = await createSubmissionRow(t.db, artist, { status: 'draft', songTitle: 'Never Sent' });
    expect((await call('DELETE', `/api/submissions/${sent.id}`, artistCookie)).statusCode).toBeLessThan(300);
    expect((await call('DELETE', `/api/submissions/${draft.id}`, artistCookie)).statusCode).toBeLessThan(300);
    expect(await unseen(adminCookie, sent.id)).toMatchObject({ count: 1, latestKind: 'withdrawn', songTitle: 'Gone Tomorrow', gone: true });
    expect(await unseen(adminCookie, draft.id)).toBeUndefined();
    expect((await call('POST', '/api/admin/activity/seen', adminCookie, { submissionIds: [sent.id] })).statusCode).toBe(204);
    expect(await unseen(adminCookie, sent.id)).toBeUndefined();
  });

  it('any feature records activity through the one verb (an agreement signed, say)', async () => {
    const sub = await createSubmissionRow(t.db, artist, { status: 'approved', songTitle: 'Signed Away' });
    await t.db.transaction((tx) => recordArtistActivity(tx, { submissionId: sub.id, songTitle: sub.songTitle, kind: 'agreement_signed', at: new Date() }));
    expect(await unseen(adminCookie, sub.id)).toMatchObject({ count: 1, latestKind: 'agreement_signed' });
  });

  it('only admins read or clear it; a bad list is refused with 400', async () => {
    expect((await call('GET', '/api/admin/activity', artistCookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/activity', undefined)).statusCode).toBe(401);
    expect((await call('POST', '/api/admin/activity/seen', artistCookie, { submissionIds: ['x'] })).statusCode).toBe(403);
    expect((await call('POST', '/api/admin/activity/seen', adminCookie, { submissionIds: [] })).statusCode).toBe(400);
    expect((await call('POST', '/api/admin/activity/seen', adminCookie, { submissionIds: ['../etc'] })).statusCode).toBe(400);
    expect((await call('POST', '/api/admin/activity/seen', adminCookie, {})).statusCode).toBe(400);
  });
});
