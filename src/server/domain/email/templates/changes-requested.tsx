import { EmailLayout, Paragraph, Quote } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';
import { link } from './template';

export interface ChangesRequestedData {
  submissionId: string;
  songTitle: string;
  /** What the team asks the artist to change (required with the request, CONTRACT §27). */
  review: string;
  /** How many new versions the artist may still send, this one included. */
  versionsLeft: number;
}

/**
 * CONTRACT §27: the team asked for a new version. The artist reads what to change and is told the
 * answer costs nothing: the plan and its payment carry over to the new version.
 */
export const changesRequested: EmailTemplate<ChangesRequestedData> = {
  preference: 'statusChanges',
  subject: (data) => `Changes requested for "${data.songTitle}"`,
  body: (data, context) => (
    <EmailLayout
      preview={`The label would like a new version of "${data.songTitle}".`}
      heading="The label would like a new version"
      action={{ label: 'Upload a new version', url: link(context, `/dashboard?submission=${data.submissionId}`) }}
      unsubscribe={context.unsubscribe}
    >
      <Paragraph>Our team listened to "{data.songTitle}" and asks for a few changes before deciding:</Paragraph>
      <Quote>{data.review}</Quote>
      <Paragraph>
        Upload the new version from your submission's details. Your plan and payment carry over: nothing is charged.
        {data.versionsLeft === 1 ? ' This is the last new version this submission can take.' : ''}
      </Paragraph>
    </EmailLayout>
  ),
};
