import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openToken, sealToken, TokenBoxError } from './token-box';

describe('the token box', () => {
  it('seals with a fresh nonce each time and opens only with the same key, untampered', () => {
    const key = randomBytes(32);
    const a = sealToken(key, '1//refresh-token');
    const b = sealToken(key, '1//refresh-token');
    expect(a).not.toBe(b);
    expect(a).not.toContain('refresh-token');
    expect(openToken(key, a)).toBe('1//refresh-token');
    expect(() => openToken(randomBytes(32), a)).toThrow(TokenBoxError);
    const [v, nonce, tag, body] = a.split('.');
    // One bit of the ciphertext flipped (in its bytes: a changed base64 letter may decode the same,
    // and choosing the letter by another one left it unchanged once in 64 runs).
    const bytes = Buffer.from(body!, 'base64url');
    bytes[0] = bytes[0]! ^ 1;
    const flipped = `${v}.${nonce}.${tag}.${bytes.toString('base64url')}`;
    expect(flipped).not.toBe(a);
    expect(() => openToken(key, flipped)).toThrow(TokenBoxError);
    expect(() => openToken(key, 'plain')).toThrow(TokenBoxError);
  });
});
