import { CreditCard, ExternalLink, Lock, MessageCircle, MessageSquareQuote } from 'lucide-react';
import { usePublicConfig } from '@client/lib/public-config';
import { conversationHref, TEAM_CONVERSATION_ID } from '@shared/messages';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { Submission } from '@shared/submission-schemas';
import { LICENSED_SUBMISSION_MESSAGE, RELEASE_DATE_OPTION_LABELS, TIERS, formatUsd, isArtistDeletable, isPaidTier, isPaymentDue } from '@shared/submissions';
import { ChangeTierControl } from '@client/entities/submission/change-tier-control';
import { ArtworkThumbnail } from '@client/entities/submission/artwork-thumbnail';
import { AudioPlayer } from '@client/entities/submission/audio-player';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { formatLongDate, formatLongDateTime } from '@client/lib/format';
import { StatusBadge } from '@client/entities/submission/status-badge';
import { ArtistProduction } from '@client/entities/submission/artist-production';
import { DecisionDate } from '@client/entities/submission/decision-date';
import { SignAgreementPrompt } from '@client/entities/submission/sign-agreement';
import { TrackComments } from './track-comments';
import { NewVersionForm } from './new-version-form';
import { VersionsList } from '@client/entities/submission/versions-list';
import { useSubmissionVersions } from '@client/entities/submission/version-queries';
import { VERSION_TEXTS } from '@shared/versions';
import { DescriptionRow } from '@client/components/description-row';
import { useSubmissionBilling } from '@client/entities/billing/billing-queries';
import { DocumentLinks } from '@client/entities/billing/document-links';

interface SubmissionDetailsDialogProps {
  submission: Submission | null;
  onClose: () => void;
}

/** A link the artist gave, shown in full and opened in a new tab. */
function ExternalUrl({ url }: { url: string }) {
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1.5 text-sm break-all text-primary-soft underline-offset-4 hover:underline">
      <ExternalLink className="size-3.5 shrink-0" aria-hidden />
      {url}
    </a>
  );
}

/** Everything the artist sent, and where it stands (SPEC §2 "Submission Details dialog"). */
export function SubmissionDetailsDialog({ submission, onClose }: SubmissionDetailsDialogProps) {
  return (
    <Dialog open={submission !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-3xl">{submission ? <DetailsBody submission={submission} /> : null}</DialogContent>
    </Dialog>
  );
}

function DetailsBody({ submission: s }: { submission: Submission }) {
  // Without card payments configured the primary "Complete Payment" would lead to a dead end; the plan box above stays.
  const paymentsUnavailable = usePublicConfig().data?.stripePublishableKey === null;
  const title = s.songTitle || 'Untitled';
  const paid = isPaidTier(s.pricingTier);
  const paymentDue = paid && isPaymentDue(s.status);
  const licensed = !isArtistDeletable(s.status);
  const releaseDate = s.releaseDateOption === 'specific' && s.releaseDate ? formatLongDate(`${s.releaseDate}T00:00:00`) : s.releaseDateOption ? RELEASE_DATE_OPTION_LABELS[s.releaseDateOption] : '—';

  return (
    <>
      <DialogHeader>
        <DialogTitle className="break-words">Submission Details</DialogTitle>
        <DialogDescription>
          {s.status === 'draft' ? `Draft, last saved ${formatLongDateTime(s.updatedAt)}` : `Submitted ${formatLongDateTime(s.createdAt)}`}
        </DialogDescription>
      </DialogHeader>

      <DecisionDate submission={s} />

      {s.adminReview ? (
        <section aria-labelledby="label-review" data-testid="label-review" className="grid gap-2 rounded-lg border border-primary/40 bg-primary/10 p-4">
          <h3 id="label-review" className="flex items-center gap-2 text-sm font-semibold">
            <MessageSquareQuote className="size-4 text-primary-soft" aria-hidden />
            Review from the label
          </h3>
          <p className="text-sm whitespace-pre-wrap">{s.adminReview}</p>
          {s.adminReviewedAt ? <p className="text-xs text-muted-foreground">{formatLongDateTime(s.adminReviewedAt)}</p> : null}
        </section>
      ) : null}

      {/* CONTRACT §27: the label asked for changes; the answer is a new version, here. */}
      {s.status === 'changes_requested' ? <NewVersionForm submission={s} /> : null}

      <TrackComments submissionId={s.id} />

      <SignAgreementPrompt submission={s} />

      {s.status !== 'draft' ? <ArtistProduction submissionId={s.id} Section={Section} /> : null}

      {paymentDue ? (
        <section className="grid gap-3 rounded-lg border border-warning/40 bg-warning/5 p-4" aria-label="Payment due">
          <p className="text-sm">
            {s.status === 'payment_failed' ? 'The last payment did not go through. ' : ''}
            This submission goes to the label once its {TIERS[s.pricingTier].name} plan ({formatUsd(s.amount ?? TIERS[s.pricingTier].priceUsd)}) is paid,
            or right away on the Free plan.
          </p>
          <ChangeTierControl submission={s} />
        </section>
      ) : null}

      {licensed ? (
        <p className="flex items-start gap-2 text-sm text-muted-foreground">
          <Lock className="mt-0.5 size-4 shrink-0" aria-hidden />
          {LICENSED_SUBMISSION_MESSAGE}
        </p>
      ) : null}

      <Section title={s.submissionType === 'video' ? 'Video info' : 'Track info'}>
        <div className="flex items-center gap-4">
          <ArtworkThumbnail url={s.artworkUrl} alt={`Artwork of ${title}`} className="size-16" />
          <div className="grid min-w-0 gap-1">
            <p className="text-lg font-semibold break-words">{title}</p>
            <p className="text-sm break-words text-muted-foreground">{s.artistName}</p>
            <div>
              <StatusBadge status={s.status} />
            </div>
          </div>
        </div>
        {s.musicFileUrl ? <AudioPlayer src={s.musicFileUrl} downloadName={`${s.artistName} - ${title}`} /> : null}
        {s.videoUrl ? <ExternalUrl url={s.videoUrl} /> : null}
        {s.videoFileUrl ? <video src={s.videoFileUrl} controls preload="metadata" className="max-h-72 w-full rounded-lg bg-black" aria-label={`Video of ${title}`} /> : null}
        {s.musicUrl ? <ExternalUrl url={s.musicUrl} /> : null}
      </Section>

      {s.status !== 'draft' ? <Versions submission={s} /> : null}

      <Section title="Details">
        <Fields>
          <DescriptionRow term="Type">{s.submissionType === 'video' ? 'Finished video' : 'Track for a music video'}</DescriptionRow>
          <DescriptionRow term="Submission method">{s.submissionMethod === 'link' ? 'Link' : 'Upload'}</DescriptionRow>
          <DescriptionRow term="Release status">{s.releaseStatus === 'released' ? 'Released' : 'Unreleased'}</DescriptionRow>
          <DescriptionRow term="Release date">{releaseDate}</DescriptionRow>
          <DescriptionRow term="Lyrics">{s.hasLyrics ? `Yes${s.lyricsLanguage ? ` (${s.lyricsLanguage})` : ''}` : 'No'}</DescriptionRow>
          <DescriptionRow term="AI usage">{s.aiUsage ? 'Yes' : 'No'}</DescriptionRow>
          {s.submissionType === 'video' ? null : <DescriptionRow term="Video style">{s.videoStyle === 'custom' ? 'Custom' : 'Non-custom'}</DescriptionRow>}
          <DescriptionRow term="Genre">{s.genre ?? 'Not specified'}</DescriptionRow>
          <DescriptionRow term="Mood">{s.mood ?? 'Not specified'}</DescriptionRow>
        </Fields>
        {s.hasLyrics && s.lyrics ? <LongText label="Lyrics">{s.lyrics}</LongText> : null}
      </Section>

      {s.artworkUrl ? (
        <Section title="Artwork">
          <a href={s.artworkUrl} target="_blank" rel="noopener noreferrer" className="justify-self-start">
            <img src={s.artworkUrl} alt={`Artwork of ${title}`} className="max-h-64 rounded-lg object-contain" />
          </a>
        </Section>
      ) : null}

      {s.description ? (
        <Section title="Description">
          <p className="text-sm whitespace-pre-wrap">{s.description}</p>
        </Section>
      ) : null}

      {s.styleReferenceUrls.length > 0 ? <ImageGrid title={`Style references (${s.styleReferenceUrls.length})`} urls={s.styleReferenceUrls} label="Style reference" /> : null}
      {s.characterImageUrls.length > 0 ? <ImageGrid title={`Character images (${s.characterImageUrls.length})`} urls={s.characterImageUrls} label="Character image" /> : null}
      {s.creativeDirection ? (
        <Section title="Creative direction">
          <p className="text-sm whitespace-pre-wrap">{s.creativeDirection}</p>
        </Section>
      ) : null}

      <Section title="Technical info">
        <Fields>
          <DescriptionRow term="Submission ID">
            <span className="font-mono text-xs [overflow-wrap:anywhere]">{s.id}</span>
          </DescriptionRow>
          {/* A free plan reads "Free", not "Free · Free"; a paid one adds whether it was paid. */}
          <DescriptionRow term="Plan">{`${TIERS[s.pricingTier]?.name ?? s.pricingTier}${paid ? ` · ${s.paymentStatus === 'succeeded' ? 'Paid' : s.paymentStatus === 'refunded' ? 'Refunded' : 'Unpaid'}` : ''}`}</DescriptionRow>
          <DescriptionRow term="Submitted">{formatLongDateTime(s.createdAt)}</DescriptionRow>
          <DescriptionRow term="Last updated">{formatLongDateTime(s.updatedAt)}</DescriptionRow>
        </Fields>
      </Section>

      {paid ? (
        <Section title="Payment info">
          <Fields>
            <DescriptionRow term="Payment status">{s.paymentStatus ? s.paymentStatus.charAt(0).toUpperCase() + s.paymentStatus.slice(1) : 'Pending'}</DescriptionRow>
            <DescriptionRow term="Payment ID">
              <span className="font-mono text-xs [overflow-wrap:anywhere]">{s.stripePaymentIntentId ?? '—'}</span>
            </DescriptionRow>
            <DescriptionRow term="Amount">{formatUsd(s.amount ?? TIERS[s.pricingTier].priceUsd)}</DescriptionRow>
            {s.paymentStatus === 'succeeded' || s.paymentStatus === 'refunded' ? <BillingDocumentsRow submissionId={s.id} /> : null}
          </Fields>
        </Section>
      ) : null}

      <DialogFooter>
        {s.status === 'draft' ? (
          <Button asChild>
            <Link href={`/submit?draft=${encodeURIComponent(s.id)}`}>Continue</Link>
          </Button>
        ) : null}
        {s.status === 'payment_pending' && !paymentsUnavailable ? (
          <Button asChild>
            <Link href={`/checkout/${s.id}`}>
              <CreditCard aria-hidden />
              Complete Payment
            </Link>
          </Button>
        ) : null}
        {/* CONTRACT §18: the details link to the conversation, about this submission. */}
        <Button asChild variant="outline">
          <Link href={conversationHref(TEAM_CONVERSATION_ID, s.id)}>
            <MessageCircle aria-hidden />
            Message the label team
          </Link>
        </Button>
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
      </DialogFooter>
    </>
  );
}

/** Every version the artist sent (CONTRACT §27), once there is more than the original. */
function Versions({ submission: s }: { submission: Submission }) {
  const versions = useSubmissionVersions(s.id, s.round);
  if (s.round <= 1 || !versions.data?.length) return null;
  return (
    <Section title={VERSION_TEXTS.heading}>
      <VersionsList versions={versions.data} video={s.submissionType === 'video'} />
    </Section>
  );
}

/** The payment's invoice and, after a refund, its credit note (CONTRACT §19); all of them are on /settings/billing. */
function BillingDocumentsRow({ submissionId }: { submissionId: string }) {
  const payment = useSubmissionBilling(submissionId);
  return (
    <DescriptionRow term="Documents" className="sm:col-span-2">
      <span className="grid gap-2">
        <DocumentLinks documents={payment?.documents ?? []} emptyText={payment ? 'None yet' : 'Loading...'} />
        <Link href="/settings/billing" className="text-sm text-primary-soft underline-offset-4 hover:underline">
          All payments and invoices
        </Link>
      </span>
    </DescriptionRow>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-3 border-t pt-4">
      <h3 className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">{title}</h3>
      {children}
    </section>
  );
}

function Fields({ children }: { children: ReactNode }) {
  return <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">{children}</dl>;
}

function LongText({ label, children }: { label: string; children: string }) {
  return (
    <div className="grid gap-1">
      <p className="text-xs text-muted-foreground">{label}</p>
      <p className="max-h-48 overflow-y-auto rounded-md bg-muted/50 p-3 text-sm whitespace-pre-wrap">{children}</p>
    </div>
  );
}

function ImageGrid({ title, urls, label }: { title: string; urls: string[]; label: string }) {
  return (
    <Section title={title}>
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-6">
        {urls.map((url, index) => (
          <li key={url}>
            <a href={url} target="_blank" rel="noopener noreferrer" className="block overflow-hidden rounded-md ring-primary transition hover:ring-2" aria-label={`${label} ${index + 1} (opens in a new tab)`}>
              <img src={url} alt="" loading="lazy" className="aspect-square w-full bg-muted object-cover" />
            </a>
          </li>
        ))}
      </ul>
    </Section>
  );
}
