import { describe, expect, it } from 'vitest';
import type { QueueEmail } from '../../platform/email/outbox';
import { EMAIL_KINDS, type EmailKinds } from './email-kinds';

/**
 * The email kinds are one typed table (decision 145): what is checked here at run time, and what
 * the `@ts-expect-error` lines make `npm run typecheck` refuse.
 */
describe('the email kinds', () => {
  it('give every kind a template, and the kinds whose email is completed as it goes out their preparer', () => {
    for (const [kind, { template }] of Object.entries(EMAIL_KINDS)) {
      expect(template.subject, kind).toBeTypeOf('function');
      expect(template.body, kind).toBeTypeOf('function');
    }
    const prepared = Object.entries(EMAIL_KINDS).flatMap(([kind, spec]) => (spec.prepare ? [kind] : []));
    expect(prepared.sort()).toEqual(['delivery_comments', 'password_reset', 'payee_link', 'signing_invitation', 'unread_messages', 'verify_email']);
  });

  it('cannot be queued with the link their preparer makes, nor without the data their template needs', () => {
    const verify: QueueEmail<EmailKinds, 'verify_email'> = {
      kind: 'verify_email',
      userId: 'u1',
      // @ts-expect-error the link is made as the email goes out, never queued (an empty one used to be)
      data: { firstName: 'Nora', verifyUrl: '' },
    };
    const status: QueueEmail<EmailKinds, 'status_changed'> = {
      kind: 'status_changed',
      userId: 'u1',
      // @ts-expect-error a kind sent as queued needs all its template's data
      data: { songTitle: 'Dark Waves' },
    };
    expect([verify.kind, status.kind]).toEqual(['verify_email', 'status_changed']);
  });
});
