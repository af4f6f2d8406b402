import { TEAM_CONVERSATION_ID, TEAM_NAME_IN_SENTENCE } from '@shared/messages';
import { EmailLayout, Paragraph, Quote } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';
import { link } from './template';

/** Several unread messages make one email (CONTRACT §10); the data is gathered when it is sent. */
export interface UnreadMessagesData {
  /**
   * The conversations, newest first, each with its latest unread message: for the team, one per
   * artist (id and name the artist's); for an artist, the one with the label team (id
   * TEAM_CONVERSATION_ID, name TEAM_NAME), whose quoted message is signed by the admin who wrote
   * it (`signedBy`; absent from emails prepared before it was added).
   */
  conversations: { fromUserId: string; fromName: string; count: number; latest: string; signedBy?: string }[];
  /** Artists read them on /messages, and so does the team. */
  total: number;
}

const preview = (text: string) => (text.length > 500 ? `${text.slice(0, 500)}…` : text);

export const unreadMessages: EmailTemplate<UnreadMessagesData> = {
  preference: 'messages',
  subject: (data) =>
    data.conversations.length === 1
      ? `New message from ${data.conversations[0]!.fromUserId === TEAM_CONVERSATION_ID ? TEAM_NAME_IN_SENTENCE : data.conversations[0]!.fromName}`
      : `${data.total} unread messages`,
  body: (data, context) => {
    const only = data.conversations.length === 1 ? data.conversations[0]! : undefined;
    return (
      <EmailLayout
        preview={only ? preview(only.latest) : `You have ${data.total} unread messages.`}
        heading={only ? `${only.fromName} wrote to you` : `You have ${data.total} unread messages`}
        action={{ label: 'Read and reply', url: link(context, only ? `/messages?with=${only.fromUserId}` : '/messages') }}
        unsubscribe={context.unsubscribe}
      >
        {data.conversations.map((c) => (
          <div key={c.fromUserId}>
            <Paragraph>
              {c.fromName}
              {c.count > 1 ? ` (${c.count} messages)` : ''}:
            </Paragraph>
            <Quote>
              {preview(c.latest)}
              {c.signedBy ? (
                <>
                  <br />— {c.signedBy}
                </>
              ) : null}
            </Quote>
          </div>
        ))}
      </EmailLayout>
    );
  },
};
