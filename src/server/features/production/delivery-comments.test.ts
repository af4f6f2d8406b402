import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryComment, Delivery, ProductionState } from '@shared/production';
import { deliveryComments, outboxEmails, submissions, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';
import { deliverableObjectPath } from '../../test/production-fixtures';
import { sentTo, type TestSmtpServer } from '../../test/smtp-test-server';
import { listenOnLoopback, openSocket, type TestSocket } from '../../test/test-sockets';

/** CONTRACT §17: versions, comments on a delivery, their push and email, the approval of a cut. */

let t: TestApp;
let smtp: TestSmtpServer;
let wsUrl: string;
let admin: UserRow;
let adminCookie: string;
let artist: UserRow;
let artistCookie: string;
let other: UserRow;
let otherCookie: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ MESSAGE_EMAIL_DELAY_S: '1' }, { smtp: true });
  smtp = t.smtp;
  wsUrl = await listenOnLoopback(t.app);
  admin = await createAdmin(t.db, { firstName: 'Lena', lastName: 'Ortiz' });
  adminCookie = await t.signIn(admin);
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  artistCookie = await t.signIn(artist);
  other = await createArtist(t.db, { artistName: 'Someone Else' });
  otherCookie = await t.signIn(other);
});
afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await t?.close();
});

const call: TestApp['call'] = (...args) => t.call(...args);

async function deliver(submissionId: string, kinds: ('image' | 'audio')[] = ['audio']): Promise<Delivery> {
  const objectPaths = [];
  for (const kind of kinds) objectPaths.push(await deliverableObjectPath(t.app, adminCookie, kind));
  const res = await call('POST', `/api/admin/submissions/${submissionId}/deliverables`, adminCookie, { objectPaths, note: null });
  expect(res.statusCode).toBe(201);
  return res.json<Delivery>();
}

async function submissionWithDelivery() {
  const sub = await createSubmissionRow(t.db, artist, { status: 'in_creation', songTitle: `Cut ${Math.random().toString(36).slice(2, 7)}` });
  const delivery = await deliver(sub.id);
  return { sub, delivery, base: `/api/submissions/${sub.id}/deliveries/${delivery.id}` };
}

describe('versions', () => {
  it('numbers deliveries 1, 2, … in delivery order', async () => {
    const { sub, delivery } = await submissionWithDelivery();
    expect(delivery.version).toBe(1);
    const second = await deliver(sub.id);
    expect(second.version).toBe(2);
    const list = (await call('GET', `/api/submissions/${sub.id}/deliverables`, artistCookie)).json<Delivery[]>();
    expect(list.map((d) => d.version)).toEqual([1, 2]);
  });
});

describe('comments on a delivery', () => {
  it('the owner and the team comment at a moment of a file, reply and resolve; oldest first', async () => {
    const { delivery, base } = await submissionWithDelivery();
    const fileId = delivery.files[0]!.id;
    const first = await call('POST', `${base}/comments`, artistCookie, { text: '  The logo comes in too early ', atSeconds: 34.5, fileId });
    expect(first.statusCode).toBe(201);
    const comment = first.json<DeliveryComment>();
    expect(comment).toMatchObject({
      deliveryId: delivery.id,
      fileId,
      atSeconds: 34.5,
      text: 'The logo comes in too early',
      replyTo: null,
      resolved: false,
      author: { id: artist.id, name: 'Nora Vex', role: 'user' },
    });
    const reply = await call('POST', `${base}/comments`, adminCookie, { text: 'Moved it to 0:40', replyTo: comment.id });
    expect(reply.statusCode).toBe(201);
    expect(reply.json<DeliveryComment>()).toMatchObject({ replyTo: comment.id, atSeconds: null, author: { id: admin.id, name: 'Lena Ortiz', role: 'admin' } });

    const resolved = await call('PATCH', `${base}/comments/${comment.id}`, adminCookie, { resolved: true });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json<DeliveryComment>().resolved).toBe(true);
    expect((await call('PATCH', `${base}/comments/${comment.id}`, artistCookie, { resolved: false })).json<DeliveryComment>().resolved).toBe(false);

    for (const cookie of [artistCookie, adminCookie]) {
      const list = await call('GET', `${base}/comments`, cookie);
      expect(list.statusCode).toBe(200);
      expect(list.json<DeliveryComment[]>().map((c) => c.text)).toEqual(['The logo comes in too early', 'Moved it to 0:40']);
    }
  });

  it('refuses another artist (404), the signed out (401) and bad input (400)', async () => {
    const { sub, delivery, base } = await submissionWithDelivery();
    const posted = (await call('POST', `${base}/comments`, artistCookie, { text: 'Hi' })).json<DeliveryComment>();
    // Another artist: not found, whatever the body.
    expect((await call('GET', `${base}/comments`, otherCookie)).statusCode).toBe(404);
    expect((await call('POST', `${base}/comments`, otherCookie, { text: 'Hi' })).statusCode).toBe(404);
    expect((await call('PATCH', `${base}/comments/${posted.id}`, otherCookie, { resolved: true })).statusCode).toBe(404);
    expect((await call('POST', `${base}/approve`, otherCookie)).statusCode).toBe(404);
    // Signed out.
    expect((await call('GET', `${base}/comments`, undefined)).statusCode).toBe(401);
    expect((await call('POST', `${base}/comments`, undefined, { text: 'Hi' })).statusCode).toBe(401);
    expect((await call('PATCH', `${base}/comments/${posted.id}`, undefined, { resolved: true })).statusCode).toBe(401);
    expect((await call('POST', `${base}/approve`, undefined)).statusCode).toBe(401);
    // Bad input.
    const bad: object[] = [
      {},
      { text: '' },
      { text: '   ' },
      { text: 'x'.repeat(2001) },
      { text: 42 },
      { text: 'Hi', atSeconds: -1 },
      { text: 'Hi', atSeconds: '12' },
      { text: 'Hi', fileId: 'not an id' },
      { text: 'Hi', fileId: posted.id },
      { text: 'Hi', replyTo: delivery.files[0]!.id },
    ];
    for (const body of bad) {
      const res = await call('POST', `${base}/comments`, artistCookie, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await call('POST', `${base}/comments`, artistCookie, { text: 'x'.repeat(2000) })).statusCode).toBe(201);
    expect((await call('PATCH', `${base}/comments/${posted.id}`, artistCookie, { resolved: 'yes' })).statusCode).toBe(400);
    // Unknown delivery or comment, or a delivery of another submission.
    const elsewhere = await submissionWithDelivery();
    expect((await call('GET', `/api/submissions/${sub.id}/deliveries/${elsewhere.delivery.id}/comments`, artistCookie)).statusCode).toBe(404);
    expect((await call('GET', `/api/submissions/${sub.id}/deliveries/nope/comments`, artistCookie)).statusCode).toBe(404);
    expect((await call('PATCH', `${base}/comments/${elsewhere.delivery.id}`, artistCookie, { resolved: true })).statusCode).toBe(404);
  });

  it('refuses a reply to a comment of another delivery, and a file of another delivery (400)', async () => {
    const { sub, base } = await submissionWithDelivery();
    const first = (await call('POST', `${base}/comments`, artistCookie, { text: 'On v1' })).json<DeliveryComment>();
    const second = await deliver(sub.id);
    const secondBase = `/api/submissions/${sub.id}/deliveries/${second.id}`;
    const res = await call('POST', `${secondBase}/comments`, adminCookie, { text: 'Reply across', replyTo: first.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'comment_target_invalid' });
    const firstFile = (await call('GET', `/api/submissions/${sub.id}/deliverables`, artistCookie)).json<Delivery[]>()[0]!.files[0]!.id;
    expect((await call('POST', `${secondBase}/comments`, adminCookie, { text: 'Wrong file', fileId: firstFile, atSeconds: 1 })).statusCode).toBe(400);
  });

  /** The owner's, the team's and another artist's sockets, each ready. */
  async function openSidesSockets() {
    const [artistSocket, adminSocket, outsider] = await Promise.all(
      [artistCookie, adminCookie, otherCookie].map((cookie) => openSocket(wsUrl, { cookie, origin: 'http://localhost:5000' })),
    );
    sockets.push(artistSocket!, adminSocket!, outsider!);
    for (const s of [artistSocket!, adminSocket!, outsider!]) await s.waitFor((e) => e.type === 'ready');
    return { artistSocket: artistSocket!, adminSocket: adminSocket!, outsider: outsider! };
  }

  it('pushes a new comment over /ws to the other side', async () => {
    const { sub, base } = await submissionWithDelivery();
    const { artistSocket, adminSocket, outsider } = await openSidesSockets();

    const fromArtist = (await call('POST', `${base}/comments`, artistCookie, { text: 'Too dark at 1:02', atSeconds: 62 })).json<DeliveryComment>();
    const atTeam = await adminSocket.waitFor<{ type: string; comment: DeliveryComment; submissionId: string }>(
      (e) => e.type === 'delivery_comment' && (e as unknown as { comment: DeliveryComment }).comment.id === fromArtist.id,
    );
    expect(atTeam.submissionId).toBe(sub.id);
    expect(atTeam.comment).toEqual(fromArtist);

    const fromTeam = (await call('POST', `${base}/comments`, adminCookie, { text: 'Brighter now', replyTo: fromArtist.id })).json<DeliveryComment>();
    await artistSocket.waitFor((e) => e.type === 'delivery_comment' && (e as unknown as { comment: DeliveryComment }).comment.id === fromTeam.id);
    expect(outsider.events.filter((e) => e.type === 'delivery_comment')).toEqual([]);
  });

  it('pushes a resolve and a reopen over /ws to the other side, and not to another artist', async () => {
    const { sub, base } = await submissionWithDelivery();
    const { artistSocket, adminSocket, outsider } = await openSidesSockets();
    type Pushed = { type: string; comment: DeliveryComment; submissionId: string };
    const pushed = (id: string, resolved: boolean) => (e: { type: string }) =>
      e.type === 'delivery_comment' && (e as Pushed).comment.id === id && (e as Pushed).comment.resolved === resolved;

    const comment = (await call('POST', `${base}/comments`, artistCookie, { text: 'The fade is too long', atSeconds: 3 })).json<DeliveryComment>();
    // The team resolves it: the artist's socket hears the comment as it now stands.
    const resolved = (await call('PATCH', `${base}/comments/${comment.id}`, adminCookie, { resolved: true })).json<DeliveryComment>();
    const atArtist = await artistSocket.waitFor<Pushed>(pushed(comment.id, true));
    expect(atArtist.submissionId).toBe(sub.id);
    expect(atArtist.comment).toEqual(resolved);
    expect(atArtist.comment).toMatchObject({ text: 'The fade is too long', resolved: true });
    // The artist reopens it: the team's socket hears that.
    await call('PATCH', `${base}/comments/${comment.id}`, artistCookie, { resolved: false });
    await adminSocket.waitFor(pushed(comment.id, false));

    // The other artist's socket heard none of it: an event for them published after these (a
    // comment on their own delivery) arrives on the same ordered socket, with nothing before it.
    const theirs = await createSubmissionRow(t.db, other, { status: 'in_creation', songTitle: 'Their cut' });
    const theirDelivery = await deliver(theirs.id);
    const own = (await call('POST', `/api/submissions/${theirs.id}/deliveries/${theirDelivery.id}/comments`, otherCookie, { text: 'Mine' })).json<DeliveryComment>();
    await outsider.waitFor(pushed(own.id, false));
    expect(outsider.events.filter((e) => e.type === 'delivery_comment').map((e) => (e as Pushed).comment.id)).toEqual([own.id]);
  });

  it('emails an unread comment after the delay; one read in time sends nothing', async () => {
    const { sub, base } = await submissionWithDelivery();
    await call('POST', `${base}/comments`, adminCookie, { text: 'Have a look at the new intro', atSeconds: 5 });
    const email = await smtp.waitFor((e) => sentTo(artist.email)(e) && String(e.mail.subject).includes(sub.songTitle) && String(e.mail.subject).includes('comment'), 15_000);
    expect(email.mail.subject).toBe(`New comment on "${sub.songTitle}"`);
    expect(email.mail.text).toContain('Have a look at the new intro');
    expect(email.mail.text).toContain('at 0:05');

    // Read by the artist (they loaded the comments) before the delay: skipped.
    await call('POST', `${base}/comments`, adminCookie, { text: 'And the outro' });
    expect((await call('GET', `${base}/comments`, artistCookie)).statusCode).toBe(200);
    const rows = () =>
      t.db
        .select({ status: outboxEmails.status })
        .from(outboxEmails)
        .where(and(eq(outboxEmails.userId, artist.id), eq(outboxEmails.kind, 'delivery_comments'), sql`${outboxEmails.templateData}->>'submissionId' = ${sub.id}`));
    await expect.poll(async () => (await rows()).map((r) => r.status).sort(), { timeout: 15_000 }).toEqual(['sent', 'skipped']);
    const read = await t.db.select({ readAt: deliveryComments.readAt }).from(deliveryComments).where(eq(deliveryComments.submissionId, sub.id));
    expect(read.every((r) => r.readAt !== null)).toBe(true);
  });
});

describe('approving the final cut', () => {
  it('the owner approves the latest cut; shown to both sides; a later delivery clears it', async () => {
    const { sub, delivery, base } = await submissionWithDelivery();
    expect((await call('POST', `${base}/approve`, adminCookie)).statusCode).toBe(403);
    const res = await call('POST', `${base}/approve`, artistCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json<ProductionState>()).toMatchObject({ approvedDeliveryId: delivery.id });
    expect(res.json<ProductionState>().cutApprovedAt).not.toBeNull();
    const team = await call('GET', `/api/admin/submissions/${sub.id}`, adminCookie);
    expect(team.json()).toMatchObject({ approvedDeliveryId: delivery.id });
    expect((await call('GET', `/api/submissions/${sub.id}/production`, adminCookie)).json<ProductionState>().approvedDeliveryId).toBe(delivery.id);

    const second = await deliver(sub.id);
    const [row] = await t.db.select().from(submissions).where(eq(submissions.id, sub.id));
    expect(row!.approvedDeliveryId).toBeNull();
    expect(row!.cutApprovedAt).toBeNull();
    // The earlier cut can no longer be approved; the new one can.
    expect((await call('POST', `${base}/approve`, artistCookie)).statusCode).toBe(409);
    const again = await call('POST', `/api/submissions/${sub.id}/deliveries/${second.id}/approve`, artistCookie);
    expect(again.json<ProductionState>().approvedDeliveryId).toBe(second.id);
  });
});
