import { EmailLayout, Paragraph } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';
import { link } from './template';

interface SubmissionReceivedData {
  submissionId: string;
  songTitle: string;
  artistName: string;
  tierName: string;
  /** A paid tier waiting for its payment: the email says the review starts once it is paid. */
  awaitingPayment: boolean;
}

export const submissionReceived: EmailTemplate<SubmissionReceivedData> = {
  preference: 'statusChanges',
  subject: (data) => `We received "${data.songTitle}"`,
  body: (data, context) => (
    <EmailLayout
      preview={`Your submission "${data.songTitle}" is in.`}
      heading="Your submission is in"
      action={{ label: 'View your submission', url: link(context, `/dashboard?submission=${data.submissionId}`) }}
      unsubscribe={context.unsubscribe}
    >
      <Paragraph>
        Thank you for sending us "{data.songTitle}" by {data.artistName} ({data.tierName} plan).
      </Paragraph>
      <Paragraph>
        {data.awaitingPayment
          ? 'Our team starts the review as soon as the payment has gone through.'
          : 'Our team will listen to it and you will hear from us here when its status changes.'}
      </Paragraph>
    </EmailLayout>
  ),
};
