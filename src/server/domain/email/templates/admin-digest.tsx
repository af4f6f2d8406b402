import { EmailLayout, Paragraph } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';
import { link } from './template';

/**
 * The team's daily digest. Each section is a list of submissions with a heading; the deadlines
 * issue adds an "Overdue" section by filling `sections`, with no change here.
 */
export interface AdminDigestData {
  date: string;
  sections: { title: string; total: number; items: { submissionId: string; songTitle: string; artistName: string; detail: string }[] }[];
}

export const adminDigest: EmailTemplate<AdminDigestData> = {
  preference: 'digest',
  subject: (data) => `Daily digest: ${data.sections.map((s) => `${s.total} ${s.title.toLowerCase()}`).join(', ')}`,
  body: (data, context) => (
    <EmailLayout
      preview={data.sections.map((s) => `${s.total} ${s.title.toLowerCase()}`).join(', ')}
      heading={`Daily digest for ${data.date}`}
      action={{ label: 'Open the admin dashboard', url: link(context, '/admin') }}
      unsubscribe={context.unsubscribe}
    >
      {data.sections.map((section) => (
        <div key={section.title}>
          <Paragraph>
            <strong>
              {section.title} ({section.total})
            </strong>
          </Paragraph>
          {section.items.map((item) => (
            <Paragraph key={item.submissionId}>
              <a href={link(context, `/admin?submission=${item.submissionId}`)}>
                "{item.songTitle}" by {item.artistName}
              </a>{' '}
              — {item.detail}
            </Paragraph>
          ))}
          {section.total > section.items.length ? <Paragraph>…and {section.total - section.items.length} more.</Paragraph> : null}
        </div>
      ))}
    </EmailLayout>
  ),
};
