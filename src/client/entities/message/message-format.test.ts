import { describe, expect, it } from 'vitest';
import type { PublicUser } from '@shared/auth';
import { formatMessageTime, partyName } from './message-format';

const user = (id: string, extra: Partial<PublicUser> = {}) => ({ id, firstName: id, lastName: null, artistName: null, email: null, ...extra }) as PublicUser;

describe('formatMessageTime', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it('shows the clock time under 24 hours and the date from then on', () => {
    expect(formatMessageTime('2026-03-10T11:00:00Z', now)).toMatch(/^\d{1,2}:\d{2}\s?[AP]M$/);
    expect(formatMessageTime('2026-03-09T11:59:00Z', now)).toMatch(/^Mar \d{1,2}, 2026$/);
  });
});

describe('partyName', () => {
  it('prefers the artist name, then first and last name, then email', () => {
    expect(partyName(user('x', { artistName: 'Nora Vex', firstName: 'Nora' }))).toBe('Nora Vex');
    expect(partyName(user('x', { firstName: 'Lena', lastName: 'Label' }))).toBe('Lena Label');
    expect(partyName(user('x', { firstName: null, email: 'a@b.c' }))).toBe('a@b.c');
  });
});
