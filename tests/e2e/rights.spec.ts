import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { expect, request as playwrightRequest, test, type Locator, type Page } from '@playwright/test';
import { startTestOidcProvider, type TestOidcProvider } from '../../src/server/test/oidc-provider';
import { startTestSmtpServer, sentTo, type TestSmtpServer } from '../../src/server/test/smtp-test-server';
import { startYouTubeStub, type YouTubeStub } from '../../src/server/test/youtube-stub';
import { registerArtist, uploadBytes } from './fixtures';
import { ownServerBase, startOwnServer, type OwnServer } from './own-server';
import { ESIGN_DISCLOSURE, RIGHTS_OVERRIDE_TEXTS, RIGHTS_PART_LABELS, SIGNING_TEXTS } from '../../src/shared/rights';

/**
 * Rights before release (issue 35, CONTRACT §22) in the browser: the artist names two co-owners
 * and Content ID in the wizard and reviews the split sheet before accepting the terms, is approved
 * and signs (and, in the same step, for the co-owner without an email); the other co-owner reads
 * the disclosure, signs from the emailed link on a phone and keeps a copy (downloaded, and emailed
 * as an attachment: issue 43); the team downloads the
 * allowlist letter, marks it done and publishes; the YouTube stub got `containsSyntheticMedia`.
 * Its own server: a mail server for the link, the OpenID provider and YouTube stub for the channel.
 */
const BASE = ownServerBase('rights');
const SHOTS = process.env.RIGHTS_SHOTS_DIR ?? 'test-results/rights-screens';
const ADMIN = { email: 'rights-admin@example.com', password: 'rights-admin-1' };
const CO_OWNER = 'sam.rivera@example.com';

let provider: TestOidcProvider;
let stub: YouTubeStub;
let smtp: TestSmtpServer;
let server: OwnServer;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(200_000);
  provider = await startTestOidcProvider();
  stub = await startYouTubeStub({ subscribers: 2000 });
  stub.verifyBearer = (token) => provider.verify(token);
  smtp = await startTestSmtpServer();
  mkdirSync(SHOTS, { recursive: true });
  server = await startOwnServer('rights', {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SMTP_URL: smtp.url,
    LABEL_LEGAL_NAME: 'Midnight Lantern Records Ltd',
    YOUTUBE_OAUTH_CLIENT_ID: 'label-channel-client',
    YOUTUBE_OAUTH_CLIENT_SECRET: 'label-channel-secret',
    GOOGLE_ISSUER: provider.issuer,
    YOUTUBE_API_URL: stub.url,
    YOUTUBE_ANALYTICS_URL: stub.url,
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await stub?.close();
  await provider?.stop();
});

/**
 * The page at 1280×800 and 390×844, as `name-1280.png` and `name-390.png`, to be looked at: the
 * whole page, or with `focus` (a part of a dialog, which scrolls on its own) the screen showing it.
 */
async function shoot(page: Page, name: string, focus?: Locator): Promise<void> {
  const before = page.viewportSize();
  for (const [width, height] of [[1280, 800], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    if (focus) await focus.scrollIntoViewIfNeeded();
    // From the top otherwise: a full-page shot of a scrolled page draws the sticky header halfway down.
    else await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: !focus });
  }
  if (before) await page.setViewportSize(before);
}

/** An MP4 as file-type knows one (an `ftyp` box), with some payload. */
function mp4(): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isommp41')]);
  const payload = Buffer.alloc(256 * 1024, 3);
  const mdatHeader = Buffer.alloc(8);
  mdatHeader.writeUInt32BE(payload.length + 8);
  mdatHeader.write('mdat', 4);
  return Buffer.concat([ftyp, mdatHeader, payload]);
}

test('two co-owners, the licence signed by all, the allowlist done, published with the AI label', async ({ page, browser }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await registerArtist(page, { prefix: 'rights', profile: { artistName: 'Nocturne Collective', country: 'Iceland' } });

  // The wizard: a link, the song, AI used, the split sheet and Content ID.
  await page.goto('/submit');
  await page.getByRole('radio', { name: /Share a link/ }).click();
  await page.getByLabel('Link to your music').fill('https://soundcloud.com/nocturne-collective/night-drive');
  const next = page.getByRole('button', { name: 'Next' });
  await next.click();
  await page.getByLabel(/Song title/).fill('Night Drive');
  await page.getByLabel('AI was used to create this song').check();
  const owners = page.getByTestId('owners-editor');
  await expect(owners.getByLabel('Owner 1 name')).toHaveValue('Nocturne Collective');
  await owners.getByLabel('Owner 1 share').fill('50');
  await owners.getByRole('button', { name: 'Add an owner' }).click();
  await owners.getByLabel('Owner 2 name').fill('Sam Rivera');
  await owners.getByLabel('Owner 2 email').fill(CO_OWNER);
  await owners.getByLabel('Owner 2 share').fill('30');
  await expect(owners.getByTestId('owners-total')).toContainText('Total 80% — The owners’ shares must add up to 100%');
  await expect(next).toBeDisabled();
  // The greyed Next says why, next to it.
  await expect(page.getByTestId('next-blocked')).toHaveText('Owners: The owners’ shares must add up to 100%');
  await expect(owners.getByTestId('owner-1-signs')).toHaveText('You, in your account');
  await shoot(page, 'wizard-next-blocked', page.getByTestId('next-blocked'));
  await owners.getByRole('button', { name: 'Add an owner' }).click();
  await owners.getByLabel('Owner 3 name').fill('Jo Kim');
  await owners.getByLabel('Owner 3 role').selectOption('producer');
  await expect(owners.getByLabel('Owner 3 share')).toHaveValue('20');
  await expect(owners.getByTestId('owners-total')).toHaveText('Total 100%');
  const contentId = page.getByTestId('content-id-questions');
  await contentId.getByLabel('Yes').check();
  await contentId.getByLabel('Distributor').fill('DistroKid');
  await contentId.getByLabel('ISRC').fill('US-RC1-26-00417');
  await expect(next).toBeEnabled();
  await expect(page.getByTestId('next-blocked')).toHaveCount(0);
  await shoot(page, 'wizard-owners-content-id');
  await next.click();
  await next.click();
  await expect(page.getByRole('heading', { name: 'Complete', exact: true })).toBeVisible();
  await next.click();
  // The Review step shows the split sheet and the rights answers before the perpetual licence is accepted.
  const review = page.getByTestId('review-rights');
  await expect(review.getByTestId('review-owners').getByRole('listitem')).toHaveText([
    /Nocturne Collective · Artist · 50%\s*You sign in your account/,
    /Sam Rivera · Writer · 30%\s*Signs from a link sent to sam\.rivera@example\.com/,
    /Jo Kim · Producer · 20%\s*No email: you sign for them/,
  ]);
  await expect(review).toContainText('With a distributor or in Content IDYes');
  await expect(review).toContainText('DistributorDistroKid');
  await expect(review).toContainText('ISRCUS-RC1-26-00417');
  await expect(review).toContainText('AI used in making the musicYes');
  await shoot(page, 'wizard-review');
  await page.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Finish Upload' }).click();
  await expect(page.getByTestId('submission-row').first()).toContainText('Night Drive');
  const mine = (await (await page.request.get('/api/submissions')).json()) as { id: string; owners: unknown[]; isrc: string }[];
  const id = mine[0]!.id;
  expect(mine[0]).toMatchObject({ isrc: 'USRC12600417' });
  expect(mine[0]!.owners).toHaveLength(3);

  // The team approves; the artist is asked to sign.
  const team = await playwrightRequest.newContext({ baseURL: BASE });
  expect((await team.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  expect((await team.patch(`/api/admin/submissions/${id}/status`, { data: { status: 'approved' } })).ok()).toBe(true);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Sign the licence agreement of Night Drive' }).click();
  const sign = page.getByRole('dialog', { name: 'Licence agreement: Night Drive' });
  await expect(sign.getByTestId('agreement-text')).toContainText('Midnight Lantern Records Ltd');
  await expect(sign.getByTestId('agreement-text')).toContainText('– Sam Rivera, writer, 30%');
  // The artist's own line is theirs to sign; the co-owner with an email is mailed only once they sign; the disclosure comes first.
  const lines = sign.getByTestId('agreement-signatures').getByRole('listitem');
  await expect(lines.nth(0)).toContainText('Your signature');
  await expect(sign.getByTestId('agreement-signatures')).not.toContainText('Signed for by the artist');
  await expect(sign.getByTestId('links-after-you')).toHaveText(SIGNING_TEXTS.linksAfterYou(['Sam Rivera']));
  await expect(sign.getByTestId('esign-disclosure')).toContainText(ESIGN_DISCLOSURE.title);
  await expect(sign.getByTestId('esign-disclosure')).toContainText('right to a paper copy');
  await shoot(page, 'artist-sign-dialog', sign.getByTestId('sign-forms'));
  await sign.getByLabel('Your full name, as your signature').fill('Mara Quill');
  await sign.getByRole('checkbox', { name: 'I agree to sign electronically' }).click();
  // Jo Kim has no email: the artist signs on their behalf in the same step, holding their written consent.
  await sign.getByRole('checkbox', { name: 'I hold their written consent' }).click();
  await sign.getByRole('button', { name: 'Sign for you and for them' }).click();
  await expect(lines.nth(2)).toContainText('Signed on their behalf');
  await expect(lines.nth(0)).toContainText('Signed');
  await expect(sign.getByText('2 of 3 owners')).toBeVisible();
  await shoot(page, 'artist-signed');
  await page.keyboard.press('Escape');

  // The co-owner signs from the emailed link, on a phone.
  const email = await smtp.waitFor(sentTo(CO_OWNER), 30_000);
  const link = /https?:\/\/\S+\/sign\/[A-Za-z0-9_-]+/.exec(email.mail.text ?? '')![0];
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const coOwner = await phone.newPage();
  await coOwner.goto(link);
  await expect(coOwner.getByText('You are named as an owner of this song')).toContainText('Sam Rivera, writer, 30%');
  // The label's name in the header; the agreement is part of the page (no box scrolling inside it); the disclosure before the consent.
  await expect(coOwner.getByTestId('sign-page-label')).toHaveText('Midnight Lantern Records Ltd · through Submission Hub');
  const text = coOwner.getByTestId('agreement-text');
  expect(await text.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(1);
  await expect(text).not.toHaveAttribute('tabindex');
  const disclosure = coOwner.getByTestId('esign-disclosure');
  for (const paragraph of ESIGN_DISCLOSURE.paragraphs) await expect(disclosure).toContainText(paragraph);
  await expect(coOwner.getByTestId('agreement-signatures').getByRole('listitem').nth(2)).toContainText('Signed on their behalf');
  await shoot(coOwner, 'co-owner-link');
  await coOwner.getByLabel('Your full name, as your signature').fill('Sam Rivera');
  await coOwner.getByRole('checkbox', { name: 'I agree to sign electronically' }).click();
  await coOwner.getByRole('button', { name: 'Sign the agreement' }).click();
  const thanks = coOwner.getByTestId('signed-thanks');
  await expect(thanks).toContainText('your signature is recorded');
  await expect(thanks).toContainText(SIGNING_TEXTS.copyEmailed);
  await shoot(coOwner, 'co-owner-signed');
  // The co-owner keeps a copy: downloaded from the thank-you, and emailed with the PDF attached.
  const copyDownload = coOwner.waitForEvent('download');
  await thanks.getByRole('link', { name: SIGNING_TEXTS.copyDownload }).click();
  const copy = await copyDownload;
  expect(copy.suggestedFilename()).toBe('agreement.pdf');
  const downloaded = await readFile((await copy.path())!);
  expect(downloaded.subarray(0, 5).toString()).toBe('%PDF-');
  const copyEmail = await smtp.waitFor((e) => e.to.includes(CO_OWNER) && e.mail.subject === 'Your signed copy of the licence of "Night Drive"', 30_000);
  expect(copyEmail.mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([['licence-agreement.pdf', 'application/pdf']]);
  expect(copyEmail.mail.attachments[0]!.content.equals(downloaded)).toBe(true);
  expect(copyEmail.mail.text).not.toContain('you have an account');
  expect(email.mail.text).not.toContain('you have an account');
  // The link is used up.
  await coOwner.goto(link);
  await expect(coOwner.getByRole('alert')).toContainText('already used or has expired');
  await coOwner.screenshot({ path: `${SHOTS}/co-owner-link-used-390.png`, fullPage: true });
  await phone.close();

  // The team: the channel, the video, then the rights step.
  expect((await page.request.post('/api/logout')).ok()).toBe(true);
  expect((await page.request.post('/api/login', { data: ADMIN })).ok()).toBe(true);
  await page.goto('/admin/channel');
  await page.getByRole('link', { name: 'Connect the channel' }).click();
  await expect(page.getByTestId('channel-title')).toHaveText('Label Channel');
  const url = await uploadBytes(team, mp4(), 'application/octet-stream');
  const checked = await team.put('/api/admin/deliverable-files', { data: { deliverableFileURL: url, fileName: 'night-drive-final.mp4' } });
  expect(checked.ok(), await checked.text()).toBe(true);
  const { objectPath } = (await checked.json()) as { objectPath: string };
  expect((await team.post(`/api/admin/submissions/${id}/deliverables`, { data: { objectPaths: [objectPath] } })).status()).toBe(201);

  // Publishing is refused while the allowlist is not done.
  const early = await team.post(`/api/admin/submissions/${id}/youtube`, { data: { objectPath, title: 'Night Drive', description: '', tags: [], privacyStatus: 'public' } });
  expect(early.status()).toBe(409);
  expect(await early.json()).toMatchObject({ code: 'rights_incomplete', missing: ['allowlist'] });

  await page.goto(`/admin?submission=${id}`);
  const rights = page.getByTestId('rights-panel');
  await expect(rights.getByTestId('rights-state')).toContainText('Waiting for the channel allowlisted');
  await expect(rights).toContainText('Signed by every owner');
  await expect(rights).toContainText('ISRC US-RC1-26-00417');
  await shoot(page, 'desk-rights-allowlist', rights);
  // The publish form says what it waits for and offers the admin's override with a reason.
  const form = page.getByRole('form', { name: 'Publish on the channel' });
  await expect(form.getByTestId('rights-override')).toContainText(RIGHTS_OVERRIDE_TEXTS.waiting(RIGHTS_PART_LABELS.allowlist));
  await expect(form.getByLabel(RIGHTS_OVERRIDE_TEXTS.label)).toBeVisible();
  const download = page.waitForEvent('download');
  await rights.getByRole('link', { name: 'Allowlist letter (PDF)' }).click();
  const letter = await download;
  expect(letter.suggestedFilename()).toBe('allowlist-letter.pdf');
  await rights.getByRole('button', { name: 'Mark allowlist done' }).click();
  await expect(rights.getByTestId('rights-state')).toHaveText('Ready to publish');
  await expect(form.getByTestId('rights-override')).toHaveCount(0);
  await shoot(page, 'desk-rights-ready', rights);

  // Published from the desk: the AI-assisted track goes out as synthetic media, and says so.
  await expect(form.getByLabel('Description')).toHaveValue(/AI tools were used in making this music\./);
  await form.getByRole('button', { name: 'Publish on YouTube' }).click();
  // The cut was delivered, not approved by the artist: the product's own question (CONTRACT §21).
  await page.getByRole('alertdialog', { name: 'Publish an unapproved cut?' }).getByRole('button', { name: 'Publish anyway' }).click();
  await expect(page.getByTestId('youtube-progress').getByRole('link')).toHaveText(/https:\/\/www\.youtube\.com\/watch\?v=/, { timeout: 60_000 });
  const videos = [...stub.videos.values()];
  expect(videos).toHaveLength(1);
  expect(videos[0]).toMatchObject({ containsSyntheticMedia: true });
  expect(videos[0]!.description).toContain('AI tools were used in making this music.');
  await shoot(page, 'desk-published', page.getByTestId('youtube-progress'));
  await team.dispose();
});
