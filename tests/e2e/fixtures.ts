import AxeBuilder from '@axe-core/playwright';
import { expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config';

/**
 * What the browser specs share: new artists and the admin signed in through the API, small valid
 * files made in code, a submission made the way the wizard makes it, toasts, screenshots and axe.
 * Each spec keeps only what is its own.
 */

export { E2E_ADMIN };

/** The password of every artist the specs register. */
export const PASSWORD = 'dark-wave-42';

export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A tiny valid MP3: MPEG-1 Layer III frame headers (128 kbit/s, 44.1 kHz → 417-byte frames) with silent bodies. */
export function tinyMp3(): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x00]);
  return Buffer.concat(Array.from({ length: 12 }, () => frame));
}

/** A mono 16-bit WAV of the samples in `data` at `rate`: a file every Chromium build can decode and play. */
export function wav(data: Buffer, rate = 8000): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** `seconds` of 8 kHz mono silence. */
export const silentWav = (seconds = 1, rate = 8000) => wav(Buffer.alloc(seconds * rate * 2), rate);

/** Who signs in: a page (its context gets the session) or an API context of its own. */
type Target = Page | APIRequestContext;
const apiOf = (target: Target): APIRequestContext => ('request' in target ? target.request : target);

/**
 * A new artist, signed in on `target`; with `profile`, the artist profile is saved too, so the
 * dashboard opens without the prompt a brand-new account gets.
 */
export async function registerArtist(
  target: Target,
  { prefix = 'artist', profile }: { prefix?: string; profile?: Record<string, unknown> } = {},
): Promise<{ email: string; id: string }> {
  const api = apiOf(target);
  const email = uniqueEmail(prefix);
  const res = await api.post('/api/register', { data: { firstName: 'Mara', lastName: 'Quill', email, password: PASSWORD } });
  expect(res.status()).toBe(201);
  if (profile) expect((await api.put('/api/profile', { data: profile })).ok()).toBe(true);
  return { email, id: ((await res.json()) as { id: string }).id };
}

/** A new artist in an API context of their own (another person than the page's). */
export async function newArtistApi(baseURL: string, options: Parameters<typeof registerArtist>[1] = {}) {
  const api = await playwrightRequest.newContext({ baseURL });
  return { api, ...(await registerArtist(api, options)) };
}

/** Signs `target` in as the label's admin. */
export async function signInAsAdmin(target: Target): Promise<void> {
  expect((await apiOf(target).post('/api/login', { data: E2E_ADMIN })).ok()).toBe(true);
}

/** The admin in an API context of their own. */
export async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL });
  await signInAsAdmin(api);
  return api;
}

/** Uploads bytes the way the browser does (an upload URL, then PUT); answers the URL for the normalisation route. */
export async function uploadBytes(api: APIRequestContext, bytes: Buffer, contentType: string): Promise<string> {
  const issued = await api.post('/api/objects/upload');
  expect(issued.ok()).toBe(true);
  const { uploadURL } = (await issued.json()) as { uploadURL: string };
  const put = await api.put(uploadURL, { data: bytes, headers: { 'content-type': contentType } });
  expect(put.ok(), await put.text()).toBe(true);
  return uploadURL;
}

/** The body of POST /api/submissions for a free submission by link; `overrides` win. */
export const linkSubmission = (overrides: Record<string, unknown> = {}) => ({
  submissionMethod: 'link',
  musicUrl: 'https://example.com/track',
  releaseStatus: 'unreleased',
  artistName: 'Nocturne Collective',
  songTitle: 'Night Drive',
  hasLyrics: false,
  aiUsage: false,
  videoStyle: 'non-custom',
  pricingTier: 'free',
  termsAccepted: true,
  ...overrides,
});

/** A submission made the way the wizard makes it (POST /api/submissions) by whoever `api` is signed in as; answers its id. */
export async function createSubmission(api: APIRequestContext, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/api/submissions', { data: linkSubmission(overrides) });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/**
 * The rights a submission needs before it is published (CONTRACT §22), through the API: its artist
 * signs the licence agreement (the only owner) and the team marks the Content ID allowlist done.
 */
export async function clearRights(artist: APIRequestContext, team: APIRequestContext, id: string): Promise<void> {
  const signed = await artist.post(`/api/submissions/${id}/agreement/sign`, { data: { name: 'The Artist', consent: true } });
  expect(signed.ok(), await signed.text()).toBe(true);
  expect((await team.post(`/api/admin/submissions/${id}/allowlist`, { data: { done: true } })).ok()).toBe(true);
}

/** Toast texts are matched exactly, and the first: Radix also announces them in a visually hidden live region. */
export const toastText = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

/**
 * Full-page screenshots of the page at 1280 and 390 px, as `folder/name-width.png` (a folder
 * outside the per-test one, which Playwright empties when a test passes), to be looked at.
 */
export async function shoot(page: Page, folder: string, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${folder}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Until the page's finite animations have ended: a dialog's overlay still fading in lowers every
 * contrast behind it, so axe reads the page after (a spinner's endless animation is not waited for).
 */
export async function animationsEnded(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 10_000 },
  );
}

/**
 * No serious or critical axe violation on the page as it is now. What axe finds is looked at again
 * once the animations that started meanwhile have ended: a toast that begins to fade while axe
 * reads the page (its close timer runs on its own) has, for that moment, too little contrast. A
 * violation of the page itself is there both times.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const serious = async () => {
    await animationsEnded(page);
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    return bad.map((v) => `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };
  const first = await serious();
  expect(first.length === 0 ? first : await serious()).toEqual([]);
}

/** Stripe.js stand-in: what @stripe/react-stripe-js needs, and confirmPayment answering `window.__confirmResult`. */
export const FAKE_STRIPE_JS = `
window.Stripe = function Stripe() {
  function makeElement() {
    var handlers = {};
    return {
      mount: function (node) {
        var field = document.createElement('div');
        field.textContent = 'Card number (test stand-in)';
        field.setAttribute('data-testid', 'fake-card-field');
        field.style.cssText = 'padding:12px;border:1px solid #363046;border-radius:6px;color:#a19db3';
        node.appendChild(field);
        setTimeout(function () { (handlers.ready || []).forEach(function (h) { h({ elementType: 'payment' }); }); }, 0);
      },
      on: function (event, handler) { (handlers[event] = handlers[event] || []).push(handler); },
      off: function (event, handler) { handlers[event] = (handlers[event] || []).filter(function (h) { return h !== handler; }); },
      update: function () {},
      destroy: function () {},
    };
  }
  return {
    elements: function () { return { create: makeElement, update: function () {}, getElement: function () { return null; } }; },
    createToken: function () {},
    createPaymentMethod: function () {},
    confirmCardPayment: function () {},
    confirmPayment: function (options) {
      window.__confirmOptions = { returnUrl: options.confirmParams.return_url, redirect: options.redirect };
      return Promise.resolve(window.__confirmResult);
    },
    registerAppInfo: function () {},
    _registerWrapper: function () {},
  };
};
window.Stripe.version = 'endive';
`;
