import { describe, expect, it } from 'vitest';
import { linkedSubmissionIdOf, withoutLink } from './use-deep-link';

describe('the desk deep link', () => {
  it('reads the submission the digest links to', () => {
    expect(linkedSubmissionIdOf('?submission=abc-123')).toBe('abc-123');
    expect(linkedSubmissionIdOf('?other=1&submission=a%2Fb')).toBe('a/b');
  });

  it('reads no link from a URL without one, or with an empty one', () => {
    expect(linkedSubmissionIdOf('')).toBeNull();
    expect(linkedSubmissionIdOf('?status=pending')).toBeNull();
    expect(linkedSubmissionIdOf('?submission=')).toBeNull();
  });

  it('forgets the link and keeps the rest of the URL', () => {
    expect(withoutLink('/admin', '?submission=abc')).toBe('/admin');
    expect(withoutLink('/admin', '?a=1&submission=abc&b=2')).toBe('/admin?a=1&b=2');
  });

  it('leaves a URL without a link alone', () => {
    expect(withoutLink('/admin', '?a=1')).toBeNull();
    expect(withoutLink('/admin', '')).toBeNull();
  });
});
