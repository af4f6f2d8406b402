import { EmailLayout, Paragraph } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';
import { link } from './template';
import { billingDocumentNumberUrl } from '@shared/billing';

/** A receipt: always sent, whatever the preferences. */
interface PaymentReceivedData {
  submissionId: string;
  songTitle: string;
  tierName: string;
  /** e.g. "$99.00" */
  amount: string;
  paymentIntentId: string;
  paidAt: string;
  /** Absent on receipts queued before invoices existed. */
  invoiceNumber?: string;
}

export const paymentReceived: EmailTemplate<PaymentReceivedData> = {
  preference: null,
  subject: (data) => `Receipt: ${data.amount} for "${data.songTitle}"`,
  body: (data, context) => (
    <EmailLayout
      preview={`We received your payment of ${data.amount}.`}
      heading="Payment received"
      action={{ label: 'View your submission', url: link(context, `/dashboard?submission=${data.submissionId}`) }}
    >
      <Paragraph>We received your payment. Your submission is now in the review queue.</Paragraph>
      <Paragraph>
        Submission: "{data.songTitle}"
        <br />
        Plan: {data.tierName}
        <br />
        Amount: {data.amount}
        <br />
        Date: {new Date(data.paidAt).toUTCString()}
        <br />
        Payment reference: {data.paymentIntentId}
      </Paragraph>
      {data.invoiceNumber ? (
        <Paragraph>
          Your invoice {data.invoiceNumber} as a PDF:{' '}
          <a href={link(context, billingDocumentNumberUrl(data.invoiceNumber))}>download it</a>
          <br />
          All your invoices: <a href={link(context, '/settings/billing')}>your billing page</a>
        </Paragraph>
      ) : null}
      <Paragraph>Keep this email as your receipt.</Paragraph>
    </EmailLayout>
  ),
};
