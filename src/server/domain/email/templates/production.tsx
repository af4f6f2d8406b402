import { EmailLayout, Paragraph, Quote } from './layout';
import type { EmailTemplate } from '../../../platform/email/outbox';
import { link } from './template';
import { billingDocumentNumberUrl } from '@shared/billing';
import type { RefundReason } from '@shared/submissions';

/** After approval (CONTRACT §10, §13): deliverables, the publication, a viral hit, a refund. */

const submissionLink = (context: Parameters<EmailTemplate<never>['body']>[1], submissionId: string) =>
  link(context, `/dashboard?submission=${submissionId}`);

interface DeliverablesReadyData {
  submissionId: string;
  songTitle: string;
  fileCount: number;
  note: string | null;
}

export const deliverablesReady: EmailTemplate<DeliverablesReadyData> = {
  preference: 'deliveries',
  subject: (data) => `Your files for "${data.songTitle}" are ready`,
  body: (data, context) => (
    <EmailLayout
      preview={`${data.fileCount} file${data.fileCount === 1 ? '' : 's'} delivered for "${data.songTitle}".`}
      heading="Your files are ready"
      action={{ label: 'See and download your files', url: submissionLink(context, data.submissionId) }}
      unsubscribe={context.unsubscribe}
    >
      <Paragraph>
        The label delivered {data.fileCount} file{data.fileCount === 1 ? '' : 's'} for "{data.songTitle}". You can play, preview
        and download them from your submission's details.
      </Paragraph>
      {data.note ? (
        <>
          <Paragraph>A note from the team:</Paragraph>
          <Quote>{data.note}</Quote>
        </>
      ) : null}
    </EmailLayout>
  ),
};

interface VideoPublishedData {
  submissionId: string;
  songTitle: string;
  videoUrl: string;
  publishedAt: string;
  checkAt: string;
  viewsNeeded: number;
}

/** Filed under Deliveries, whose setting covers "ready, published, or reaches a milestone". */
export const videoPublished: EmailTemplate<VideoPublishedData> = {
  preference: 'deliveries',
  subject: (data) => `"${data.songTitle}" is published`,
  body: (data, context) => (
    <EmailLayout
      preview={`Your video for "${data.songTitle}" is on the label's channel.`}
      heading="Your video is published"
      action={{ label: 'Watch the video', url: data.videoUrl }}
      unsubscribe={context.unsubscribe}
    >
      <Paragraph>The video for "{data.songTitle}" is on the label's channel: {data.videoUrl}</Paragraph>
      <Paragraph>
        On {new Date(data.checkAt).toUTCString()} we count its views: {data.viewsNeeded.toLocaleString('en-US')} or more make it a
        viral hit towards your bonus. Share it!
      </Paragraph>
      <Paragraph>Your submission: {submissionLink(context, data.submissionId)}</Paragraph>
    </EmailLayout>
  ),
};

interface ViralHitData {
  submissionId: string;
  songTitle: string;
  views: number;
  subscriberCount: number;
  viralHits: number;
  hitsNeeded: number;
}

/** A milestone: filed under Deliveries, like the publication it follows. */
export const viralHitRecorded: EmailTemplate<ViralHitData> = {
  preference: 'deliveries',
  subject: (data) => `"${data.songTitle}" is a viral hit`,
  body: (data, context) => (
    <EmailLayout
      preview={`${data.views.toLocaleString('en-US')} views in 14 days: a viral hit.`}
      heading="A viral hit!"
      action={{ label: 'See your bonus', url: link(context, '/dashboard') }}
      unsubscribe={context.unsubscribe}
    >
      <Paragraph>
        "{data.songTitle}" reached {data.views.toLocaleString('en-US')} views in 14 days, at least half of the channel's{' '}
        {data.subscriberCount.toLocaleString('en-US')} subscribers.
      </Paragraph>
      <Paragraph>
        Viral hits: {Math.min(data.viralHits, data.hitsNeeded)} of {data.hitsNeeded}.
        {data.viralHits >= data.hitsNeeded ? ' Every track published from now on earns you the bonus.' : ''}
      </Paragraph>
    </EmailLayout>
  ),
};

/** A refund is money: always sent, whatever the preferences. */
interface RefundIssuedData {
  submissionId: string;
  songTitle: string;
  amount: string;
  reason: RefundReason;
  /** The credit note issued for the refund; absent on emails queued before credit notes existed. */
  creditNoteNumber?: string;
}

export const refundIssued: EmailTemplate<RefundIssuedData> = {
  preference: null,
  subject: (data) => `Refund of ${data.amount} for "${data.songTitle}"`,
  body: (data, context) => (
    <EmailLayout
      preview={`We refunded ${data.amount}.`}
      heading="Your payment is refunded"
      action={
        // A withdrawn submission is gone: its money is on the billing page.
        data.reason === 'withdrawn'
          ? { label: 'View your billing', url: link(context, '/settings/billing') }
          : { label: 'View your submission', url: submissionLink(context, data.submissionId) }
      }
    >
      <Paragraph>
        {data.reason === 'withdrawn'
          ? `You withdrew "${data.songTitle}", so we refunded your payment of ${data.amount} in full.`
          : data.reason === 'late_decision'
          ? `We did not give "${data.songTitle}" a decision by the date we promised, so we refunded your payment of ${data.amount} in full. It stays in review: you will still get our answer.`
          : data.reason === 'late_delivery'
          ? `We did not deliver "${data.songTitle}" by the date your plan promised, so we refunded your payment of ${data.amount} in full, as promised.`
          : data.reason === 'rejected'
            ? `The label turned down "${data.songTitle}" before anything was delivered, so we refunded your payment of ${data.amount} in full, as promised.`
            : `We refunded your payment of ${data.amount} for "${data.songTitle}" in full.`}
      </Paragraph>
      {data.creditNoteNumber ? (
        <Paragraph>
          Your credit note {data.creditNoteNumber} as a PDF:{' '}
          <a href={link(context, billingDocumentNumberUrl(data.creditNoteNumber))}>download it</a>
        </Paragraph>
      ) : null}
      <Paragraph>The money reaches your card within 5–10 business days, depending on your bank.</Paragraph>
    </EmailLayout>
  ),
};
