import { afterAll, describe, expect, it } from 'vitest';
import { render } from '@react-email/render';
import { renderEmail, type EmailContext, type EmailTemplate } from '../../platform/email/email-template';
import { RenderPool } from '../../platform/email/render-pool';
import { EMAIL_KINDS, type EmailKinds } from './email-kinds';
import { EMAIL_TEMPLATES, EMAIL_TEMPLATES_MODULE } from './email-templates';

/**
 * Issue 37: the outbox renders every kind on a worker thread, from EMAIL_TEMPLATES, and what the
 * thread makes is what the kind's own template makes here on the test's thread, byte for byte.
 */
type SentData<K extends keyof EmailKinds> = Parameters<EmailKinds[K]['template']['subject']>[0];

const submissionId = 'sub_0123456789';
/** An email of every kind, with the data it goes out with; `satisfies` asks for a new kind's. */
const SAMPLES = {
  verify_email: { firstName: 'Nora', verifyUrl: 'http://localhost:5000/verify-email?token=secret-verify', change: true },
  password_reset: { firstName: null, resetUrl: 'http://localhost:5000/reset-password?token=secret-reset' },
  submission_received: { submissionId, songTitle: 'Dark Waves', artistName: 'Nora & the Tides', tierName: 'Premium', awaitingPayment: true },
  payment_received: {
    submissionId,
    songTitle: 'Dark Waves',
    tierName: 'Premium',
    amount: '$99.00',
    paymentIntentId: 'pi_123',
    paidAt: '2026-11-27T10:00:00.000Z',
    invoiceNumber: 'INV-2026-0001',
  },
  status_changed: { submissionId, songTitle: 'Dark Waves', statusLabel: 'Approved', review: 'Lovely <b>mix</b> — "go".\nSecond line.' },
  changes_requested: { submissionId, songTitle: 'Dark Waves', review: 'Bring the vocals up at 1:12 — "more air".\nSecond line.', versionsLeft: 3 },
  unread_messages: {
    conversations: [
      { fromUserId: 'team', fromName: 'the label team', count: 2, latest: 'See you at the studio', signedBy: 'Ada' },
      { fromUserId: 'u2', fromName: 'Björk', count: 1, latest: 'ü'.repeat(600) },
    ],
    total: 3,
  },
  admin_digest: {
    date: '2026-11-27',
    sections: [{ title: 'New submissions', total: 1, items: [{ submissionId, songTitle: 'Dark Waves', artistName: 'Nora', detail: 'Premium' }] }],
  },
  deliverables_ready: { submissionId, songTitle: 'Dark Waves', fileCount: 3, note: 'Final cut' },
  video_published: {
    submissionId,
    songTitle: 'Dark Waves',
    videoUrl: 'https://www.youtube.com/watch?v=abc',
    publishedAt: '2026-11-27T10:00:00.000Z',
    checkAt: '2026-12-11T10:00:00.000Z',
    viewsNeeded: 10_000,
  },
  viral_hit_recorded: { submissionId, songTitle: 'Dark Waves', views: 12_345, subscriberCount: 5_000, viralHits: 1, hitsNeeded: 3 },
  viral_hit_withdrawn: {
    submissionId,
    songTitle: 'Dark Waves',
    views: 9_870,
    viewsNeeded: 10_000,
    voided: [{ songTitle: 'Night Drive', amount: '$25.00' }],
    clawedBack: [{ songTitle: 'Paper Moons', amount: '$25.00' }],
  },
  bonus_clawed_back: { total: '$25.00', earnings: [{ songTitle: 'Paper Moons', amount: '$25.00' }], hitSongTitle: 'Dark Waves' },
  refund_issued: { submissionId, songTitle: 'Dark Waves', amount: '$99.00', reason: 'late_delivery', creditNoteNumber: 'CN-2026-0001' },
  delivery_comments: {
    submissionId,
    songTitle: 'Dark Waves',
    comments: [{ authorName: 'Ada', version: 2, atSeconds: 83, text: 'Cut earlier here' }],
    total: 1,
    path: '/admin',
  },
  signing_invitation: {
    signatureId: 'sig_1',
    ownerName: 'Co Writer',
    songTitle: 'Dark Waves',
    artistName: 'Nora',
    signUrl: 'http://localhost:5000/sign/secret-sign',
    validUntil: '27 December 2026',
  },
  agreement_signature_received: { submissionId, songTitle: 'Dark Waves', artistName: 'Nora', signerName: 'Co Writer', onBehalf: true, signedCount: 1, ownerCount: 2 },
  agreement_signed: { submissionId, songTitle: 'Dark Waves', artistName: 'Nora', signerName: 'Co Writer', onBehalf: false, signedCount: 2, ownerCount: 2 },
  agreement_copy: { signatureId: 'sig_1', ownerName: 'Co Writer', songTitle: 'Dark Waves', artistName: 'Nora' },
  decision_reminder: { submissionId, songTitle: 'Dark Waves', artistName: 'Nora', tierName: 'Premium', decisionDueAt: '2026-12-01T14:00:00.000Z', decisionDueText: 'Tue, 1 Dec 2026, 14:00 UTC', lateAction: 'refund' },
  decision_overdue: { submissionId, songTitle: 'Dark Waves', artistName: 'Nora', tierName: 'Free', decisionDueAt: '2026-12-01T14:00:00.000Z', decisionDueText: 'Tue, 1 Dec 2026, 14:00 UTC', lateAction: 'close' },
  payee_link: {
    payeeId: 'payee_1',
    name: 'Co Writer',
    artistName: 'Nora',
    songTitle: 'Dark Waves',
    reason: 'earned',
    payeeUrl: 'http://localhost:5000/payee/secret-payee',
    validUntil: '27 December 2026',
  },
} satisfies { [K in keyof EmailKinds]: SentData<K> };

const context = (kind: keyof EmailKinds): EmailContext => ({
  publicUrl: 'http://localhost:5000/',
  unsubscribe: EMAIL_KINDS[kind].template.preference ? { url: 'http://localhost:5000/unsubscribe?token=t', what: 'your submissions' } : undefined,
});

const pool = new RenderPool({ templates: EMAIL_TEMPLATES_MODULE });
afterAll(() => pool.close());

describe('every kind of email rendered on a worker thread', () => {
  it('comes from the same template as its kind', () => {
    expect(Object.keys(EMAIL_TEMPLATES).sort()).toEqual(Object.keys(EMAIL_KINDS).sort());
    for (const [kind, { template }] of Object.entries(EMAIL_KINDS)) expect(template, kind).toBe(EMAIL_TEMPLATES[kind as keyof EmailKinds]);
  });

  it.each(Object.keys(SAMPLES) as (keyof EmailKinds)[])('%s: is what the template renders on this thread', async (kind) => {
    const data = SAMPLES[kind];
    const here = await renderEmail<unknown>(EMAIL_KINDS[kind].template, data, context(kind));
    const there = await pool.render({ kind, data, context: context(kind) });
    expect(there).toEqual(here);
    expect(here.html).toContain('<html');
    expect(here.text.length).toBeGreaterThan(50);
  });

  // The element is rendered once, its text converted from that HTML (issue 50): the text is
  // exactly what react-email's own plain-text render of the element gives.
  it.each(Object.keys(SAMPLES) as (keyof EmailKinds)[])('%s: its text is react-email\'s plain-text render', async (kind) => {
    const { text } = await renderEmail<unknown>(EMAIL_KINDS[kind].template, SAMPLES[kind], context(kind));
    const element = (EMAIL_KINDS[kind].template as EmailTemplate<unknown>).body(SAMPLES[kind], context(kind));
    expect(text).toBe(await render(element, { plainText: true }));
  });
});

/**
 * Issue 43: the plain-text part writes a link's URL after its words, so a sentence that ended on
 * a link ended on "https://…/x." and mail clients that turn URLs into links took the period in.
 * Every kind is rendered with its sample (the notifications with their unsubscribe footer).
 */
describe('the plain-text part of every kind of email', () => {
  // The co-owner's copy carries the agreement as an attachment and links nowhere (decision 189).
  const WITHOUT_LINKS: readonly (keyof EmailKinds)[] = ['agreement_copy'];
  it.each(Object.keys(SAMPLES) as (keyof EmailKinds)[])('%s: never has a period right after a URL', async (kind) => {
    const { text } = await renderEmail<unknown>(EMAIL_KINDS[kind].template, SAMPLES[kind], context(kind));
    // A URL runs to the next space: a period (or a bracket and a period) after it is in the run.
    const urls = text.match(/https?:\/\/\S+/g) ?? [];
    if (WITHOUT_LINKS.includes(kind)) expect(urls).toEqual([]);
    else expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url, `${kind}: ${url}`).not.toMatch(/\.$/);
  });
});
