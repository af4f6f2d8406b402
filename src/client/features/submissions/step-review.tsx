import type { ReactNode } from 'react';
import { Controller } from 'react-hook-form';
import { PROCESSING_FEE_USD, TIERS, formatUsd } from '@shared/submissions';
import { Checkbox } from '@client/components/ui/checkbox';
import type { WizardForm } from './wizard-form';

interface StepReviewProps {
  form: WizardForm;
  musicFileName: string | undefined;
  artworkPreviewUrl: string | undefined;
}

const RELEASE_DATE_TEXT = { undecided: 'Undecided', asap: 'As soon as possible' } as const;

/** Step 5: a summary of everything entered, and the terms (SPEC §2). */
export function StepReview({ form, musicFileName, artworkPreviewUrl }: StepReviewProps) {
  const v = form.watch();
  const tier = TIERS[v.pricingTier];
  const releaseDate = v.releaseDateOption === 'specific' ? v.releaseDate || 'Specific date (not set)' : RELEASE_DATE_TEXT[v.releaseDateOption];
  const video = v.submissionType === 'video';
  const music = v.submissionMethod === 'link' ? v.musicUrl.trim() : musicFileName ?? '—';

  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-4 sm:flex-row">
        {artworkPreviewUrl ? <img src={artworkPreviewUrl} alt="Artwork" className="size-28 shrink-0 rounded-lg object-cover" /> : null}
        <dl className="grid flex-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          <Row term="Song title">{v.songTitle}</Row>
          <Row term="Artist">{v.artistName}</Row>
          <Row term="Type">{video ? 'A finished video to publish' : 'A track for a music video'}</Row>
          {video ? (
            v.videoUrl.trim() ? (
              <Row term="Video link">{v.videoUrl.trim()}</Row>
            ) : (
              // An uploaded video: its file's name (musicFileName is the video uploader's for a video).
              <Row term="Video file">{musicFileName ?? '—'}</Row>
            )
          ) : (
            <Row term={v.submissionMethod === 'link' ? 'Music link' : 'Music file'}>{music}</Row>
          )}
          <Row term="Genre">{v.genre || 'Not specified'}</Row>
          <Row term="Mood">{v.mood.trim() || 'Not specified'}</Row>
          <Row term="Release">{`${v.releaseStatus === 'released' ? 'Released' : 'Unreleased'} · ${releaseDate}`}</Row>
          <Row term="Lyrics">{v.hasLyrics ? `Yes${v.lyricsLanguage.trim() ? ` (${v.lyricsLanguage.trim()})` : ''}` : 'No'}</Row>
          <Row term="AI usage">{v.aiUsage ? 'Yes' : 'No'}</Row>
          {video ? null : (
            <Row term="Video style">
              {v.videoStyle === 'custom'
                ? `Custom · ${v.styleReferenceUrls.length} style, ${v.characterImageUrls.length} character images`
                : 'Non-custom'}
            </Row>
          )}
          <Row term="Plan">{`${tier.name} · ${formatUsd(tier.priceUsd)}`}</Row>
          <Row term="Processing fee">{formatUsd(PROCESSING_FEE_USD)}</Row>
          <Row term="Total">
            <span className="font-semibold">{formatUsd(tier.priceUsd + PROCESSING_FEE_USD)}</span>
          </Row>
        </dl>
      </div>

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

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}
