import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, TEST_ORIGIN, type TestApp } from '../../test/helpers';
import { clearRights } from '../../test/rights-fixtures';
import { headerOf, sentTo, type ReceivedEmail, type TestSmtpServer } from '../../test/smtp-test-server';
import { deliverableObjectPath } from '../../test/production-fixtures';
import { drainOutbox } from '../../test/kit';

/**
 * The emails of what comes after approval (CONTRACT §10, §13), read from a real SMTP server:
 * each caused by its route, with its subject, a text and an HTML part, the link to the exact
 * screen and RFC 8058 one-click unsubscribe for the Deliveries preference.
 */
const DAY = 24 * 60 * 60 * 1000;

let smtp: TestSmtpServer;
let t: TestApp;
let admin: UserRow;
let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp({}, { smtp: true });
  smtp = t.smtp;
  admin = await createAdmin(t.db);
  adminCookie = await t.signIn(admin);
});
afterAll(() => t?.close());

const call = (method: 'POST' | 'PUT', url: string, payload: object) => t.call(method, url, adminCookie, payload);

const withSubject = (address: string | null, subject: string) => (email: ReceivedEmail) =>
  sentTo(address)(email) && email.mail.subject === subject;

/**
 * A text and an HTML part, both with the song's title and the link to the exact screen; what the
 * email says is read in the text part; the one-click headers turn off the Deliveries preference.
 */
function expectDeliveriesEmail(email: ReceivedEmail, songTitle: string, link: string, ...texts: string[]) {
  for (const part of [email.mail.text, email.mail.html || '']) {
    expect(part).toContain(songTitle);
    expect(part).toContain(link);
  }
  expect(email.mail.html).toContain(`href="${link}"`);
  expect(email.mail.text).toContain('Submission Hub');
  for (const text of texts) expect(email.mail.text).toContain(text);
  expect(headerOf(email, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  const target = new URL(/^<(.+)>$/.exec(headerOf(email, 'list-unsubscribe'))![1]!);
  expect(target.origin + target.pathname).toBe(`${TEST_ORIGIN}/api/unsubscribe`);
  const [payload] = target.searchParams.get('token')!.split('.');
  expect(Buffer.from(payload!, 'base64url').toString()).toMatch(/:deliveries$/);
}

describe('emails after approval, over SMTP', () => {
  it('"deliverables ready": subject, the note, and a link to the submission’s details', async () => {
    const artist = await createArtist(t.db);
    const sub = await createSubmissionRow(t.db, artist, { status: 'in_creation', songTitle: 'Ready Song' });
    const objectPaths = [await deliverableObjectPath(t.app, adminCookie, 'image'), await deliverableObjectPath(t.app, adminCookie, 'audio')];
    expect((await call('POST', `/api/admin/submissions/${sub.id}/deliverables`, { objectPaths, note: 'Cut one & two' })).statusCode).toBe(201);

    const email = await smtp.waitFor(withSubject(artist.email, 'Your files for "Ready Song" are ready'));
    expectDeliveriesEmail(email, 'Ready Song', `${TEST_ORIGIN}/dashboard?submission=${sub.id}`, 'Cut one & two', 'delivered 2 files');
  });

  it('"video published": the video’s link, the date of the check, the views needed and the submission’s link', async () => {
    const artist = await createArtist(t.db);
    const sub = await createSubmissionRow(t.db, artist, { status: 'approved', songTitle: 'Published Song' });
    await clearRights(t.db, sub.id);
    const videoUrl = 'https://www.youtube.com/watch?v=pubEmail001';
    const publishedAt = new Date('2026-11-01T12:00:00.000Z');
    const res = await call('PUT', `/api/admin/submissions/${sub.id}/publication`, {
      videoUrl,
      publishedAt: publishedAt.toISOString(),
      subscriberCount: 31_000,
    });
    expect(res.statusCode).toBe(200);

    const email = await smtp.waitFor(withSubject(artist.email, '"Published Song" is published'));
    expectDeliveriesEmail(email, 'Published Song', videoUrl, `Your submission: ${TEST_ORIGIN}/dashboard?submission=${sub.id}`, '15,500 or more');
    expect(email.mail.text).toContain(`On ${new Date(publishedAt.getTime() + 14 * DAY).toUTCString()} we count its views`);
  });

  it('"viral hit": the views, the channel’s subscribers, the count towards the bonus and a link to the bonus card', async () => {
    const artist = await createArtist(t.db);
    const sub = await createSubmissionRow(t.db, artist, { status: 'approved', songTitle: 'Hit Song' });
    await clearRights(t.db, sub.id);
    const published = await call('PUT', `/api/admin/submissions/${sub.id}/publication`, {
      videoUrl: 'https://youtu.be/hitEmail001',
      publishedAt: new Date(Date.now() - 15 * DAY).toISOString(),
      subscriberCount: 31_000,
    });
    expect(published.statusCode).toBe(200);
    // Below the line: no hit, no email.
    expect((await call('PUT', `/api/admin/submissions/${sub.id}/views`, { viewsAt14Days: 15_499 })).statusCode).toBe(200);
    expect((await call('PUT', `/api/admin/submissions/${sub.id}/views`, { viewsAt14Days: 15_500 })).statusCode).toBe(200);

    const email = await smtp.waitFor(withSubject(artist.email, '"Hit Song" is a viral hit'));
    expectDeliveriesEmail(email, 'Hit Song', `${TEST_ORIGIN}/dashboard`, '15,500 views in 14 days', '31,000 subscribers', 'Viral hits: 1 of 3');
    // A correction that keeps the hit tells the artist nothing new.
    expect((await call('PUT', `/api/admin/submissions/${sub.id}/views`, { viewsAt14Days: 16_000 })).statusCode).toBe(200);
    await drainOutbox(t);
    expect(smtp.received.filter(withSubject(artist.email, '"Hit Song" is a viral hit'))).toHaveLength(1);
  });
});
