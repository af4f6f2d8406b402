import { Controller } from 'react-hook-form';
import { PROCESSING_FEE_USD, RELEASE_DATE_OPTION_LABELS, SUBMISSION_TYPE_LABELS, TIERS, formatUsd } from '@shared/submissions';
import { CONTENT_ID_LABELS, OWNER_ROLE_LABELS, formatIsrc } from '@shared/rights';
import { Checkbox } from '@client/components/ui/checkbox';
import type { WizardForm } from './wizard-form';
import { DescriptionRow } from '@client/components/description-row';
import { countOf } from '@client/lib/format';

interface StepReviewProps {
  form: WizardForm;
  /** The uploaded file's name: the music file, or the video file on the finished-video path. */
  fileName: string | undefined;
  artworkPreviewUrl: string | undefined;
}

/**
 * Step 5: a summary of everything entered, the rights the artist answered for (the split sheet,
 * Content ID, AI use: CONTRACT §22, what the owners later sign), and the terms (SPEC §2), so the
 * perpetual licence is accepted with everything it covers in view.
 */
export function StepReview({ form, fileName, artworkPreviewUrl }: StepReviewProps) {
  const v = form.watch();
  const tier = TIERS[v.pricingTier];
  // A released track reads "Released" or "Released on …", never with "Undecided" (releaseDateOptionsFor).
  const release =
    v.releaseStatus === 'released'
      ? v.releaseDate
        ? `Released on ${v.releaseDate}`
        : 'Released'
      : `Unreleased · ${v.releaseDateOption === 'specific' ? v.releaseDate || `${RELEASE_DATE_OPTION_LABELS.specific} (not set)` : RELEASE_DATE_OPTION_LABELS[v.releaseDateOption]}`;
  const video = v.submissionType === 'video';
  const byLink = v.submissionMethod === 'link';
  const source = byLink ? (video ? v.videoUrl : v.musicUrl).trim() : (fileName ?? '—');
  const sourceTerm = `${video ? 'Video' : 'Music'} ${byLink ? 'link' : 'file'}`;

  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-4 sm:flex-row">
        {artworkPreviewUrl ? <img src={artworkPreviewUrl} alt="Artwork" className="size-28 shrink-0 rounded-lg object-cover" /> : null}
        <dl className="grid flex-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          <DescriptionRow term="Song title">{v.songTitle}</DescriptionRow>
          <DescriptionRow term="Artist">{v.artistName}</DescriptionRow>
          <DescriptionRow term="Type">{SUBMISSION_TYPE_LABELS[video ? 'video' : 'track']}</DescriptionRow>
          <DescriptionRow term={sourceTerm}>{source}</DescriptionRow>
          {v.description.trim() ? (
            <DescriptionRow term="Description" className="sm:col-span-2">
              <span className="whitespace-pre-line">{v.description.trim()}</span>
            </DescriptionRow>
          ) : null}
          <DescriptionRow term="Genre">{v.genre || 'Not specified'}</DescriptionRow>
          <DescriptionRow term="Mood">{v.mood.trim() || 'Not specified'}</DescriptionRow>
          <DescriptionRow term="Release">{release}</DescriptionRow>
          <DescriptionRow term="Lyrics">{v.hasLyrics ? `Yes${v.lyricsLanguage.trim() ? ` (${v.lyricsLanguage.trim()})` : ''}` : 'No'}</DescriptionRow>
          {video ? null : (
            <DescriptionRow term="Video style">
              {v.videoStyle === 'custom'
                ? `Custom · ${countOf(v.styleReferenceUrls.length, 'style image')}, ${countOf(v.characterImageUrls.length, 'character image')}`
                : 'Non-custom'}
            </DescriptionRow>
          )}
          {!video && v.videoStyle === 'custom' && v.creativeDirection.trim() ? (
            <DescriptionRow term="Creative direction" className="sm:col-span-2">
              <span className="whitespace-pre-line">{v.creativeDirection.trim()}</span>
            </DescriptionRow>
          ) : null}
          <DescriptionRow term="Plan">{tier.priceUsd > 0 ? `${tier.name} · ${formatUsd(tier.priceUsd)}` : tier.name}</DescriptionRow>
          <DescriptionRow term="Processing fee">{formatUsd(PROCESSING_FEE_USD)}</DescriptionRow>
          <DescriptionRow term="Total">
            <span className="font-semibold">{formatUsd(tier.priceUsd + PROCESSING_FEE_USD)}</span>
          </DescriptionRow>
        </dl>
      </div>

      <section className="grid gap-3 rounded-lg border bg-background/40 p-4" aria-labelledby="review-rights" data-testid="review-rights">
        <h3 id="review-rights" className="text-sm font-semibold">
          Rights and split sheet
        </h3>
        <ul className="grid gap-1.5 text-sm" aria-label="Owners" data-testid="review-owners">
          {v.owners.map((o, i) => (
            <li key={i} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 rounded-md border border-border/60 px-3 py-2">
              <span className="min-w-0 break-words">
                <span className="font-medium">{o.name.trim() || '—'}</span>{' '}
                <span className="text-muted-foreground">
                  · {OWNER_ROLE_LABELS[o.role]} · {Number.isFinite(o.share) ? o.share : 0}%
                </span>
              </span>
              <span className="min-w-0 text-xs break-all text-muted-foreground">
                {i === 0 ? 'You sign in your account' : o.email.trim() ? `Signs from a link sent to ${o.email.trim()}` : 'No email: you sign for them'}
              </span>
            </li>
          ))}
        </ul>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          <DescriptionRow term="With a distributor or in Content ID">{CONTENT_ID_LABELS[v.contentId]}</DescriptionRow>
          {v.contentId !== 'no' ? (
            <>
              <DescriptionRow term="Distributor">{v.distributor.trim() || 'Not given'}</DescriptionRow>
              <DescriptionRow term="ISRC">{v.isrc.trim() ? formatIsrc(v.isrc.trim().toUpperCase().replaceAll('-', '')) : 'Not given'}</DescriptionRow>
            </>
          ) : null}
          <DescriptionRow term="AI used in making the music">{v.aiUsage ? 'Yes: the video is labelled as AI-assisted' : 'No'}</DescriptionRow>
        </dl>
        <p className="text-xs text-muted-foreground">
          If the label approves the song, every owner above signs a licence agreement naming these shares before it is published.
        </p>
      </section>

      <Controller
        control={form.control}
        name="termsAccepted"
        render={({ field }) => (
          <div className="flex items-start gap-3 rounded-lg border border-primary/30 bg-primary/5 p-4">
            <Checkbox id="terms-accepted" checked={field.value} onCheckedChange={(next) => field.onChange(next === true)} className="mt-0.5" />
            <label htmlFor="terms-accepted" className="cursor-pointer text-sm leading-relaxed">
              I accept the{' '}
              <a href="/terms-of-service" target="_blank" rel="noopener noreferrer" className="text-primary-soft underline underline-offset-4">
                Terms of Service
              </a>{' '}
              and the{' '}
              <a href="/privacy-policy" target="_blank" rel="noopener noreferrer" className="text-primary-soft underline underline-offset-4">
                Privacy Policy
              </a>
              , and confirm I own or am authorised to submit this {video ? 'video' : 'music'}.
            </label>
          </div>
        )}
      />
    </div>
  );
}

