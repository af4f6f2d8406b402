import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { createSubmission, PASSWORD, silentWav, TINY_PNG, uploadBytes } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';

/**
 * Handover (issue 48, CONTRACT §28) in the browser: the team adds a webhook for the label's other
 * tools, sends a ping, sees the receiver fail it (500) and the retry succeed with the same event,
 * then downloads the release package and the evidence pack of a signed song from the desk. Its own
 * server: WEBHOOK_ALLOW_PRIVATE=1, since the receiver runs on this machine.
 */
const BASE = ownServerBase('handover');
const SHOTS = process.env.HANDOVER_SHOTS_DIR ?? 'test-results/handover-screens';
const ADMIN = { email: 'handover-admin@example.com', password: 'handover-admin-1' };

let server: OwnServer;
let receiver: http.Server;
let receiverUrl: string;
const received: { id: string; type: string }[] = [];
/** The receiver's answers in turn; 200 once they run out. */
const answers: number[] = [500];

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(200_000);
  mkdirSync(SHOTS, { recursive: true });
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string };
      received.push(body);
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/label-tools`;
  server = await startOwnServer('handover', {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LABEL_LEGAL_NAME: 'Midnight Lantern Records Ltd',
    WEBHOOK_ALLOW_PRIVATE: '1',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function shoot(page: Page, name: string): Promise<void> {
  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A song with an uploaded track and artwork, approved and signed by its only owner. */
async function signedSong(): Promise<string> {
  const artist = await playwrightRequest.newContext({ baseURL: BASE });
  const email = `handover-${Date.now()}@example.com`;
  expect((await artist.post('/api/register', { data: { firstName: 'Ada', lastName: 'Reyes', email, password: PASSWORD } })).status()).toBe(201);
  const music = await artist.put('/api/music-files', { data: { musicFileURL: await uploadBytes(artist, silentWav(2), 'audio/wav'), fileName: 'northern-lights.wav' } });
  expect(music.ok(), await music.text()).toBe(true);
  const art = await artist.put('/api/artwork-files', { data: { artworkFileURL: await uploadBytes(artist, TINY_PNG, 'image/png'), fileName: 'cover.png' } });
  expect(art.ok(), await art.text()).toBe(true);
  const id = await createSubmission(artist, {
    submissionMethod: 'upload',
    musicUrl: undefined,
    musicFileUrl: ((await music.json()) as { objectPath: string }).objectPath,
    artworkUrl: ((await art.json()) as { objectPath: string }).objectPath,
    artistName: 'Ada Reyes',
    songTitle: 'Northern Lights',
    genre: 'Darkwave',
    isrc: 'US-RC1-26-00417',
    contentId: 'yes',
    distributor: 'CD Baby',
  });
  const team = await playwrightRequest.newContext({ baseURL: BASE });
  expect((await team.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  expect((await artist.get(`/api/submissions/${id}/agreement`)).ok()).toBe(true);
  const signed = await artist.post(`/api/submissions/${id}/agreement/sign`, { data: { name: 'Ada Reyes', consent: true } });
  expect(signed.ok(), await signed.text()).toBe(true);
  await artist.dispose();
  await team.dispose();
  return id;
}

test('the team adds a webhook, sees a delivery fail and then succeed with the same event, and downloads both packages', async ({ page }) => {
  test.setTimeout(180_000);
  expect((await page.request.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();

  await page.getByLabel('Endpoint URL').fill(receiverUrl);
  // Every event is ticked to begin with; the team leaves out the money ones for this tool.
  await page.getByRole('checkbox', { name: 'refund.created' }).click();
  await page.getByRole('checkbox', { name: 'payout.paid' }).click();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secret = page.getByTestId('webhook-secret');
  await expect(secret).toContainText('shown only once');
  await expect(secret.locator('code')).toHaveText(/^whsec_/);
  const endpoint = page.getByTestId('webhook-endpoint');
  await expect(endpoint).toContainText(receiverUrl);
  await expect(endpoint).not.toContainText('refund.created');

  // A ping: the receiver fails it first (500), and the retry within a minute succeeds.
  await endpoint.getByRole('button', { name: 'Send a ping' }).click();
  const attempts = endpoint.getByTestId('webhook-attempt');
  await expect(attempts.first()).toContainText('500 failed', { timeout: 15_000 });
  await expect(attempts.first()).toContainText('next attempt');
  await shoot(page, 'webhook-failed');
  await expect(attempts.first()).toContainText('200 OK', { timeout: 75_000 });
  await expect(attempts).toHaveCount(2);
  expect(received.map((r) => r.type)).toEqual(['ping', 'ping']);
  expect(received[1]!.id).toBe(received[0]!.id);
  await shoot(page, 'webhook-delivered');

  // The packages of a signed song, from the desk's rights step.
  const id = await signedSong();
  await page.goto(`/admin?submission=${id}`);
  const handover = page.getByTestId('rights-panel').getByTestId('handover');
  await expect(handover).toBeVisible();
  await handover.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/desk-handover-1280.png` });
  const release = page.waitForEvent('download');
  await handover.getByRole('link', { name: 'Release package (DDEX ZIP)' }).click();
  const releaseZip = await release;
  expect(releaseZip.suggestedFilename()).toBe('Northern Lights - release.zip');
  const releaseBytes = await readFile((await releaseZip.path())!);
  expect(releaseBytes.subarray(0, 2).toString()).toBe('PK');
  expect(releaseBytes.includes(Buffer.from('release.xml'))).toBe(true);
  const evidence = page.waitForEvent('download');
  await handover.getByRole('link', { name: 'Evidence pack (ZIP)' }).click();
  const evidenceZip = await evidence;
  expect(evidenceZip.suggestedFilename()).toBe('Northern Lights - evidence.zip');
  const evidenceBytes = await readFile((await evidenceZip.path())!);
  expect(evidenceBytes.includes(Buffer.from('signatures.json'))).toBe(true);

  // The status change of the approval reached the tool too.
  await expect.poll(() => received.some((r) => r.type === 'submission.status_changed'), { timeout: 15_000 }).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin?submission=${id}`);
  const phoneHandover = page.getByTestId('rights-panel').getByTestId('handover');
  await phoneHandover.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/desk-handover-390.png` });
});
