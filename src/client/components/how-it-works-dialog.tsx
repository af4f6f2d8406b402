import { PLANS_INTRO, PLAN_SUMMARIES } from '@shared/plans';
import { PRICING_TIERS, TIERS, formatUsd } from '@shared/submissions';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';

/** SPEC §1: the five steps from submission to publication. */
const STEPS = [
  { title: 'Submit your music', text: 'Send a track by link or upload for us to turn into a music video, or a finished video for direct publishing.' },
  { title: 'We review it', text: 'Our team listens to every submission and approves the tracks with commercial potential.' },
  { title: 'We make the video for free', text: 'For an approved track, the label creates the music video at no cost to you.' },
  { title: 'We work on it together', text: 'You and our team collaborate on the video by message, from the first ideas to the final edit.' },
  {
    title: 'We publish it',
    text: "The video goes live on the label's channel with your artist name in the title and your social links in the description.",
  },
] as const;

interface HowItWorksDialogProps {
  onOpenChange(open: boolean): void;
  /** Where focus goes back to when the dialog closes: the button that opened it. */
  onCloseAutoFocus(event: Event): void;
}

/** Opened from the dashboard header's button (artist-header.tsx), loaded on first use. */
export function HowItWorksDialog({ onOpenChange, onCloseAutoFocus }: HowItWorksDialogProps) {
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>How it Works</DialogTitle>
          <DialogDescription>From your submission to your video on our channel.</DialogDescription>
        </DialogHeader>
        <ol className="grid gap-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-3">
              <span
                aria-hidden
                className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary/20 text-sm font-semibold text-primary-soft"
              >
                {index + 1}
              </span>
              <div className="grid gap-0.5">
                <h3 className="text-sm font-semibold">{step.title}</h3>
                <p className="text-sm text-muted-foreground">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <section aria-labelledby="plans-title" className="grid gap-2">
          <h3 id="plans-title" className="text-sm font-semibold">
            What the plans buy
          </h3>
          <p className="text-sm text-muted-foreground">{PLANS_INTRO}</p>
          <dl className="grid gap-1.5 text-sm">
            {PRICING_TIERS.map((tier) => (
              <div key={tier} className="grid gap-x-2 sm:grid-cols-[9rem_1fr]">
                <dt className="font-medium">
                  {TIERS[tier].name} · {formatUsd(TIERS[tier].priceUsd)}
                </dt>
                <dd className="text-muted-foreground">
                  {PLAN_SUMMARIES[tier]} <span className="text-foreground/80">({TIERS[tier].promises.join(', ')})</span>
                </dd>
              </div>
            ))}
          </dl>
        </section>
        <section aria-labelledby="viral-bonus-title" className="grid gap-2 rounded-lg border border-primary/30 bg-primary/10 p-4">
          <h3 id="viral-bonus-title" className="text-sm font-semibold text-primary-soft">
            The viral bonus
          </h3>
          <p className="text-sm text-foreground/90">
            After 3 viral hits, you earn money for every track we publish. A viral hit is a video that reaches, within 14 days of
            publishing, views equal to at least 50% of the channel's subscriber count.
          </p>
          <p className="text-sm text-muted-foreground">
            The subscriber count is locked on the publishing date, and views are measured by the channel's analytics at exactly 14
            days. For example, with 31,000 subscribers a video needs 15,500 views or more.
          </p>
        </section>
      </DialogContent>
    </Dialog>
  );
}
