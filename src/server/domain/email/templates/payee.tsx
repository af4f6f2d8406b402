import { PRODUCT_NAME } from '@shared/brand';
import { EmailLayout, Paragraph } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';

export interface PayeeLinkData {
  /** The payee the link is made for, as the email goes out (payee-links.ts). */
  payeeId: string;
  name: string;
  artistName: string;
  songTitle: string;
  /** `earned`: their first share was just recorded; `fresh`: a new link they or the team asked for. */
  reason: 'earned' | 'fresh';
  payeeUrl: string;
  /** The link's last day, e.g. "27 December 2026". */
  validUntil: string;
}

/**
 * To a co-owner who earns a share of a viral bonus (CONTRACT §24): their own page, without an
 * account, where they see what they earned, file their tax form and connect payouts.
 */
export const payeeLink: EmailTemplate<PayeeLinkData> = {
  preference: null,
  subject: (data) => (data.reason === 'earned' ? `You earned a share of the bonus of "${data.songTitle}"` : 'Your link to your bonus payouts'),
  body: (data) => (
    <EmailLayout
      preview={data.reason === 'earned' ? `Your share of the viral bonus of "${data.songTitle}" is waiting for you.` : 'Your personal link to your bonus payouts.'}
      heading={data.reason === 'earned' ? 'You earned a share of a bonus' : 'Your bonus payouts'}
      action={{ label: 'See what you earned', url: data.payeeUrl }}
      reason={`You get this email because ${data.artistName} named you as an owner of "${data.songTitle}" on ${PRODUCT_NAME}.`}
      unsubscribe={undefined}
    >
      <Paragraph>
        Hello {data.name},{' '}
        {data.reason === 'earned'
          ? `"${data.songTitle}" by ${data.artistName} earned a viral bonus, and part of it is yours as one of its owners.`
          : 'here is a fresh link to your bonus payouts.'}
      </Paragraph>
      <Paragraph>
        The button opens your own page: what you earned, your tax form (needed before the first payment) and your payout account with
        Stripe. No account is needed. The link works until {data.validUntil}; you can ask for a fresh one on the page.
      </Paragraph>
    </EmailLayout>
  ),
};
