import { EmailLayout, Paragraph } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';
import { link } from './template';

/** A reminder to the team (CONTRACT §26): a submission's promised decision date is near, or passed. */
export interface DecisionReminderData {
  submissionId: string;
  songTitle: string;
  artistName: string;
  /** The plan's name, e.g. "Premium" or "Free". */
  tierName: string;
  /** The promised date, ISO. */
  decisionDueAt: string;
  /** Shown as the date in the email, e.g. "Mon, 30 Nov 2026, 14:00 UTC". */
  decisionDueText: string;
  /** What the label does if nothing is decided: refund, close, or nothing (LATE_DECISION=off). */
  lateAction: 'refund' | 'close' | 'none';
}

const consequence = (data: DecisionReminderData): string =>
  data.lateAction === 'refund'
    ? 'If no decision is made by then, the payment is refunded in full automatically.'
    : data.lateAction === 'close'
      ? 'If no decision is made by then, the submission is closed automatically with the label’s kind message.'
      : 'The artist was promised an answer by then.';

const deskLink = (context: Parameters<typeof link>[0], id: string) => link(context, `/admin?submission=${id}`);

/** At 75% of the decision time. */
export const decisionReminder: EmailTemplate<DecisionReminderData> = {
  preference: 'digest',
  subject: (data) => `Decision due ${data.decisionDueText}: "${data.songTitle}" by ${data.artistName}`,
  body: (data, context) => (
    <EmailLayout
      preview={`A decision on "${data.songTitle}" is due ${data.decisionDueText}.`}
      heading="A decision is due soon"
      action={{ label: 'Open it on the desk', url: deskLink(context, data.submissionId) }}
      unsubscribe={context.unsubscribe}
    >
      <Paragraph>
        "{data.songTitle}" by {data.artistName} ({data.tierName} plan) waits for a decision: approve it or reject it by {data.decisionDueText}.
      </Paragraph>
      <Paragraph>{consequence(data)}</Paragraph>
    </EmailLayout>
  ),
};

/** When the date has passed without a decision. */
export const decisionOverdue: EmailTemplate<DecisionReminderData> = {
  preference: 'digest',
  subject: (data) => `Overdue: no decision on "${data.songTitle}" by ${data.artistName}`,
  body: (data, context) => (
    <EmailLayout
      preview={`The decision on "${data.songTitle}" was due ${data.decisionDueText}.`}
      heading="A decision is overdue"
      action={{ label: 'Open it on the desk', url: deskLink(context, data.submissionId) }}
      unsubscribe={context.unsubscribe}
    >
      <Paragraph>
        The artist was promised a decision on "{data.songTitle}" by {data.artistName} ({data.tierName} plan) by {data.decisionDueText}, and none was made.
      </Paragraph>
      <Paragraph>
        {data.lateAction === 'refund'
          ? 'Its payment has been refunded in full; it stays on the desk, and the artist still waits for an answer.'
          : data.lateAction === 'close'
            ? 'It has been closed with the label’s kind message.'
            : 'It is still on the desk: please give the artist an answer.'}
      </Paragraph>
    </EmailLayout>
  ),
};
