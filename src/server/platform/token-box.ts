import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (the label channel's OAuth tokens, CONTRACT §16): AES-256-GCM with a fresh
 * 96-bit nonce each time, stored as `v1.<nonce>.<tag>.<ciphertext>` in base64url. The version
 * prefix leaves room for another key or cipher later. A changed key, or a tampered value, fails
 * to open (TokenBoxError) rather than yielding garbage.
 */
export class TokenBoxError extends Error {}

const PREFIX = 'v1';

export function sealToken(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [PREFIX, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function openToken(key: Buffer, sealed: string): string {
  const [prefix, nonce, tag, body, ...rest] = sealed.split('.');
  if (prefix !== PREFIX || !nonce || !tag || body === undefined || rest.length > 0) throw new TokenBoxError('Not a sealed token');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new TokenBoxError('The sealed token does not open with this key');
  }
}
