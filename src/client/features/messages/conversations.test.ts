import { describe, expect, it } from 'vitest';
import type { PublicUser } from '@shared/auth';
import { formatMessageTime, groupConversations, partyName } from './conversations';
import type { Message } from '@shared/messages';

const user = (id: string, extra: Partial<PublicUser> = {}) => ({ id, firstName: id, lastName: null, artistName: null, email: null, ...extra }) as PublicUser;
const me = user('me');
let n = 0;
function message(from: PublicUser, to: PublicUser, createdAt: string, isRead = false): Message {
  return { id: `m${n++}`, fromUserId: from.id, toUserId: to.id, fromUser: from, toUser: to, content: `c${n}`, isRead, submissionId: null, createdAt };
}

describe('groupConversations', () => {
  it('groups by the other party, latest message as preview, unread only for messages to me', () => {
    const a = user('a');
    const b = user('b');
    const list = [
      message(a, me, '2026-01-01T10:00:00.000Z'),
      message(me, a, '2026-01-01T10:01:00.000Z'),
      message(b, me, '2026-01-01T09:00:00.000Z', true),
      message(a, me, '2026-01-01T10:02:00.000Z'),
      message(me, b, '2026-01-01T09:30:00.000Z'),
    ];
    const conversations = groupConversations(list, me.id);
    expect(conversations.map((c) => c.user.id)).toEqual(['a', 'b']);
    expect(conversations[0]).toMatchObject({ unreadCount: 2, lastMessage: list[3] });
    expect(conversations[1]).toMatchObject({ unreadCount: 0, lastMessage: list[4] });
  });

  it('is empty without messages', () => {
    expect(groupConversations([], me.id)).toEqual([]);
  });
});

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
