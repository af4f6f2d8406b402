import { EmailLayout, Paragraph, Quote } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';
import { link } from './template';

interface StatusChangedData {
  submissionId: string;
  songTitle: string;
  /** The new status as the artist sees it, e.g. "Approved". */
  statusLabel: string;
  /** The team's review for the artist, when one came with the change. */
  review: string | null;
}

export const statusChanged: EmailTemplate<StatusChangedData> = {
  preference: 'statusChanges',
  subject: (data) => `"${data.songTitle}" is now ${data.statusLabel}`,
  body: (data, context) => (
    <EmailLayout
      preview={`Your submission "${data.songTitle}" is now ${data.statusLabel}.`}
      heading={`Your submission is now ${data.statusLabel}`}
      action={{ label: 'View your submission', url: link(context, `/dashboard?submission=${data.submissionId}`) }}
      unsubscribe={context.unsubscribe}
    >
      <Paragraph>
        The status of "{data.songTitle}" changed to {data.statusLabel}.
      </Paragraph>
      {data.review ? (
        <>
          <Paragraph>Our team's review:</Paragraph>
          <Quote>{data.review}</Quote>
        </>
      ) : null}
    </EmailLayout>
  ),
};
