import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The outcome of an email's link (`?verification=`) is read from the address once per page load:
 * React may render the banner more than once before it shows it, and each render must find the
 * same outcome although the first one took the parameter out of the address.
 */
async function pageLoad(href: string) {
  vi.resetModules();
  const addresses: string[] = [];
  vi.stubGlobal('window', {
    location: { href },
    history: { state: null, replaceState: (_state: unknown, _title: string, url: string) => addresses.push(url) },
  });
  const banner = await import('./verify-email-banner');
  return { ...banner, addresses };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the email link's outcome on the dashboard", () => {
  it('is the same for every render before the banner is shown, and leaves the address once', async () => {
    const { takeVerificationOutcome, addresses } = await pageLoad('http://hub.test/dashboard?verification=invalid&tab=1#top');
    expect(takeVerificationOutcome()).toBe('invalid');
    expect(takeVerificationOutcome()).toBe('invalid');
    expect(addresses).toEqual(['/dashboard?tab=1#top']);
  });

  it('is said once: after the banner has shown it, the dashboard opened again says nothing', async () => {
    const { takeVerificationOutcome, verificationOutcomeShown } = await pageLoad('http://hub.test/dashboard?verification=done');
    expect(takeVerificationOutcome()).toBe('done');
    verificationOutcomeShown();
    expect(takeVerificationOutcome()).toBeNull();
  });

  it('is nothing for an address without it, or with a value it does not know (which still leaves the address)', async () => {
    const plain = await pageLoad('http://hub.test/dashboard');
    expect(plain.takeVerificationOutcome()).toBeNull();
    expect(plain.addresses).toEqual([]);
    const odd = await pageLoad('http://hub.test/dashboard?verification=%00');
    expect(odd.takeVerificationOutcome()).toBeNull();
    expect(odd.addresses).toEqual(['/dashboard']);
  });
});
