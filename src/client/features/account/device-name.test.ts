import { describe, expect, it } from 'vitest';
import { deviceKind, deviceName } from './device-name';

describe('deviceName', () => {
  it('names browser and system from a user agent', () => {
    expect(deviceName('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36')).toBe(
      'Chrome on macOS',
    );
    expect(deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1')).toBe(
      'Safari on iOS',
    );
    expect(deviceKind('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1')).toBe('mobile');
  });

  it('says so when there is none, or nothing it knows', () => {
    expect(deviceName(null)).toBe('Unknown device');
    expect(deviceName('curl/8.5.0')).toBe('curl/8.5.0');
    expect(deviceName('   ')).toBe('Unknown device');
  });
});
