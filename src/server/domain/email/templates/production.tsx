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

/** An earning a withdrawn hit had made possible: what happened to it (CONTRACT §25). */
interface AffectedEarning {
  songTitle: string;
  /** "$25.00" */
  amount: string;
}

interface ViralHitWithdrawnData {
  submissionId: string;
  songTitle: string;
  /** The first 14 days' views as YouTube counts them now, and the views a hit needs. */
  views: number;
  viewsNeeded: number;
  /** Unpaid earnings that no longer stand. */
  voided: AffectedEarning[];
  /** Paid earnings taken back from the next payouts (a bonus_clawed_back email says so too). */
  clawedBack: AffectedEarning[];
}

/**
 * The second look at 28 days found fewer views for the same 14 days (YouTube removed some as
 * invalid): the hit no longer counts. Money: always sent. Plain words, no accusation.
 */
export const viralHitWithdrawn: EmailTemplate<ViralHitWithdrawnData> = {
  preference: null,
  subject: (data) => `"${data.songTitle}" no longer counts as a viral hit`,
  body: (data, context) => (
    <EmailLayout
      preview={`YouTube now counts ${data.views.toLocaleString('en-US')} views for its first 14 days.`}
      heading="A viral hit no longer counts"
      action={{ label: 'See your bonus', url: link(context, '/dashboard') }}
      unsubscribe={context.unsubscribe}
    >
      <Paragraph>
        We looked at the views of "{data.songTitle}" again, 28 days after it was published. YouTube now counts{' '}
        {data.views.toLocaleString('en-US')} views for its first 14 days, fewer than the {data.viewsNeeded.toLocaleString('en-US')} a
        viral hit needs: YouTube removes views it later finds invalid, and under our Terms those views do not count.
      </Paragraph>
      {data.voided.length ? (
        <Paragraph>
          These bonus earnings depended on this hit and will not be paid:{' '}
          {data.voided.map((e) => `"${e.songTitle}" (${e.amount})`).join(', ')}.
        </Paragraph>
      ) : null}
      {data.clawedBack.length ? (
        <Paragraph>
          These bonus earnings were already paid and will be deducted from your next bonus payouts (never charged to your card):{' '}
          {data.clawedBack.map((e) => `"${e.songTitle}" (${e.amount})`).join(', ')}.
        </Paragraph>
      ) : null}
    </EmailLayout>
  ),
};

interface BonusClawedBackData {
  /** "$25.00": the total taken back. */
  total: string;
  earnings: AffectedEarning[];
  /** The hit that no longer counts. */
  hitSongTitle: string;
}

/** A paid bonus taken back (CONTRACT §25): how it is settled. Money: always sent. */
export const bonusClawedBack: EmailTemplate<BonusClawedBackData> = {
  preference: null,
  subject: (data) => `${data.total} will be deducted from your next bonus payouts`,
  body: (data, context) => (
    <EmailLayout
      preview={`${data.total} of bonus already paid will be deducted from your next payouts.`}
      heading="A bonus paid will be deducted"
      action={{ label: 'See your bonus', url: link(context, '/dashboard') }}
      unsubscribe={context.unsubscribe}
    >
      <Paragraph>
        "{data.hitSongTitle}" no longer counts as a viral hit, so bonus paid on it is taken back:{' '}
        {data.earnings.map((e) => `"${e.songTitle}" (${e.amount})`).join(', ')}.
      </Paragraph>
      <Paragraph>
        Nothing is charged to your card and you do not need to pay anything: {data.total} is deducted from your next bonus payouts
        until it is settled.
      </Paragraph>
    </EmailLayout>
  ),
};
