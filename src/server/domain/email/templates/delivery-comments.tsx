import { EmailLayout, Paragraph, Quote } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';
import { link } from './template';
import { formatMoment } from '@shared/production';

/**
 * Comments on a delivery still unread after the delay (CONTRACT §17, §10): one email per
 * recipient and submission; what it lists is gathered when it goes (delivery-comments-email.ts).
 */
export interface DeliveryCommentsData {
  submissionId: string;
  songTitle: string;
  /** The unread comments, oldest first (at most a few quoted). */
  comments: { authorName: string; version: number; atSeconds: number | null; text: string }[];
  total: number;
  /** Where the recipient reads them: the artist's dashboard or the team's desk. */
  path?: string;
}

const preview = (text: string) => (text.length > 500 ? `${text.slice(0, 500)}…` : text);

export const deliveryComments: EmailTemplate<DeliveryCommentsData> = {
  preference: 'messages',
  subject: (data) =>
    data.total === 1 ? `New comment on "${data.songTitle}"` : `${data.total} new comments on "${data.songTitle}"`,
  body: (data, context) => (
    <EmailLayout
      preview={data.comments[0] ? preview(data.comments[0].text) : `New comments on "${data.songTitle}".`}
      heading={data.total === 1 ? 'A new comment on the cut' : `${data.total} new comments on the cut`}
      action={{ label: 'See the comments', url: link(context, data.path ?? `/dashboard?submission=${data.submissionId}`) }}
      unsubscribe={context.unsubscribe}
    >
      {data.comments.map((c, index) => (
        <div key={index}>
          <Paragraph>
            {c.authorName} on version {c.version}
            {c.atSeconds !== null ? ` at ${formatMoment(c.atSeconds)}` : ''}:
          </Paragraph>
          <Quote>{preview(c.text)}</Quote>
        </div>
      ))}
    </EmailLayout>
  ),
};
