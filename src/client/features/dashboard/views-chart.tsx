import type { DailyViews } from '@shared/production';

const DAYS = 14;
const W = 280;
const H = 84;
const PAD = { top: 8, right: 6, bottom: 4, left: 6 };
/** The Analytics API reports a day two to three days after it (decision 168). */
const ANALYTICS_LAG_MS = 3 * 86_400_000;
const VIEWS_NOT_YET = 'Views show here two to three days after publishing: YouTube reports them late.';

/**
 * The 14-day window at a glance (CONTRACT §16): the views so far, day by day, climbing toward the
 * dashed line of the views the track needs. An SVG that scales to the card's width, so a phone
 * draws it as clearly as a laptop; the figures are in its label for a screen reader.
 */
export function ViewsChart({ days, viewsNeeded, publishedAt }: { days: DailyViews[]; viewsNeeded: number; publishedAt: string }) {
  let total = 0;
  const cumulative = days.slice(0, DAYS).map((d) => (total += d.views));
  const top = Math.max(viewsNeeded, total, 1) * 1.1;
  const x = (i: number) => PAD.left + ((W - PAD.left - PAD.right) * (i + 1)) / DAYS;
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / top);
  const points = [`${PAD.left},${y(0)}`, ...cumulative.map((v, i) => `${x(i)},${y(v)}`)];
  const reached = total >= viewsNeeded;
  // YouTube's analytics report days two to three days late: "0 views so far" on the day a video
  // goes out read as a flop (issue 36), so until then the chart says when the first figures come.
  const early = total === 0 && Date.now() - new Date(publishedAt).getTime() < ANALYTICS_LAG_MS;
  // No daily figures and past the lag: the channel is not connected and the team enters the
  // 14-day count by hand, so there is nothing to draw.
  if (days.length === 0 && !early) return null;
  if (early) {
    return (
      <p className="rounded-md bg-muted/60 p-3 text-xs text-muted-foreground" data-testid="views-chart-empty">
        {VIEWS_NOT_YET}
      </p>
    );
  }
  const label = `${total.toLocaleString('en-US')} views in ${cumulative.length} of ${DAYS} days; ${viewsNeeded.toLocaleString('en-US')} needed`;
  return (
    // At most a phone's width: as wide as a laptop's card it stood ~400 px tall (issue 36).
    <figure className="grid w-full max-w-md gap-1" data-testid="views-chart">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={label}>
        <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} className="stroke-border" strokeWidth="1" />
        <line
          x1={PAD.left}
          x2={W - PAD.right}
          y1={y(viewsNeeded)}
          y2={y(viewsNeeded)}
          className="stroke-muted-foreground"
          strokeWidth="1.5"
          strokeDasharray="5 4"
        />
        <polygon points={[...points, `${x(cumulative.length - 1)},${y(0)}`].join(' ')} className="fill-primary/15" />
        <polyline points={points.join(' ')} fill="none" className="stroke-primary" strokeWidth="2.5" strokeLinejoin="round" strokeLinecap="round" />
        <circle cx={x(cumulative.length - 1)} cy={y(total)} r="3.5" className="fill-primary" />
      </svg>
      {/* In HTML, not in the drawing: scaled with it they were ~9 px on a phone. */}
      <div className="flex justify-between text-xs text-muted-foreground" aria-hidden>
        <span>Day 1</span>
        <span>Day 14</span>
      </div>
      <figcaption className="text-xs text-muted-foreground">
        <span className={reached ? 'font-medium text-primary-soft' : 'font-medium text-foreground'}>{total.toLocaleString('en-US')}</span> views so far
        {' · '}
        {viewsNeeded.toLocaleString('en-US')} needed (dashed line)
      </figcaption>
    </figure>
  );
}
