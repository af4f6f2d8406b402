import { Download, ExternalLink, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { TIERS, isPublishable, uploadIdFromObjectPath } from '@shared/submissions';
import { workEndOf } from '@shared/production';
import type { AdminSubmission } from '@shared/submission-schemas';
import { ADMIN_NOTES_MAX } from '@shared/admin';
import { AudioPlayer } from '@client/entities/submission/audio-player';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Separator } from '@client/components/ui/separator';
import { Spinner } from '@client/components/ui/spinner';
import { Textarea } from '@client/components/ui/textarea';
import { SendMessageDialog } from '@client/entities/message/send-message-dialog';
import { formatLongDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { tierPriceLabel } from './admin-badges';
import { StatusBadge } from '@client/entities/submission/status-badge';
import { TeamProduction } from '@client/entities/submission/team-production';
import { useAdminSubmission, useSaveNotes } from './admin-queries';
import { ADMIN_TOASTS, AI_USAGE_TEXTS, DETAILS_JUMPS, DETAILS_JUMPS_LABEL } from './admin-texts';
import { downloadOne, planDownloads, startDownloads, type PlannedDownload } from './download-files';
import { socialLinksOf } from '@shared/social-links';
import { DeskPanel } from './desk-panel';
import { DeskConversation } from './desk-conversation';
import { StatusChangeDialog } from './status-change-dialog';
import { WaveformPlayer } from './waveform-player';
import { DeskRounds } from './desk-rounds';
import { SubmissionHistory } from './submission-history';
import { DescriptionRow } from '@client/components/description-row';
import { RightsPanel } from '@client/entities/submission/rights-panel';

interface Props {
  submission: AdminSubmission | null;
  onOpenChange(open: boolean): void;
  onDelete(submission: AdminSubmission): void;
}

/** SPEC §2 'Submission Details - {song title or Untitled}'. */
export function SubmissionDetailsDialog({ submission, onOpenChange, onDelete }: Props) {
  return (
    <Dialog open={submission !== null} onOpenChange={onOpenChange}>
      {/* Below `md` a full-screen sheet (issue 23): a centred box on a phone left the details off to the side. */}
      <DialogContent
        className="max-w-6xl gap-0 p-0 max-md:inset-0 max-md:h-dvh max-md:max-h-dvh max-md:w-full max-md:max-w-none max-md:translate-x-0 max-md:translate-y-0 max-md:rounded-none max-md:border-0 max-md:data-[state=closed]:animate-fade-out max-md:data-[state=open]:animate-fade-in"
        aria-describedby={undefined}
      >
        {submission ? <Details key={submission.id} initial={submission} onDelete={onDelete} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function Details({ initial, onDelete }: { initial: AdminSubmission; onDelete(submission: AdminSubmission): void }) {
  const { data } = useAdminSubmission(initial.id, initial);
  const s = data ?? initial;
  const [statusOpen, setStatusOpen] = useState(false);
  const title = s.songTitle?.trim() || 'Untitled';
  const tierName = TIERS[s.pricingTier].name;
  const priceLabel = tierPriceLabel(s.pricingTier, s.amount);

  const downloadAll = () => {
    const plan = planDownloads(s);
    if (plan.length === 0) {
      toast(ADMIN_TOASTS.noFiles);
      return;
    }
    toast(ADMIN_TOASTS.downloadStarted(startDownloads(plan)));
  };

  return (
    <>
      <div className="border-b p-4 sm:p-6">
        <DialogHeader>
          <DialogTitle className="pr-6 break-words">Submission Details - {title}</DialogTitle>
          <DialogDescription className="sr-only">Everything the artist submitted, with review tools.</DialogDescription>
        </DialogHeader>
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <Button variant="outline" size="sm" onClick={() => setStatusOpen(true)}>
            <StatusBadge status={s.status} />
            <Pencil aria-hidden />
            Change Status
          </Button>
          {s.user ? <SendMessageDialog recipient={s.user} submissionId={s.id} artistName={s.artistName} /> : null}
          <Button variant="outline" size="sm" onClick={downloadAll}>
            <Download aria-hidden />
            Download Files
          </Button>
          <Button variant="ghost" size="sm" className="text-destructive-soft hover:text-destructive-soft sm:ml-auto" onClick={() => onDelete(s)}>
            <Trash2 aria-hidden />
            Delete
          </Button>
        </div>
      </div>

      <SectionJumps publishable={isPublishable(s.status)} />

      <div className="grid gap-6 p-4 sm:p-6 lg:grid-cols-2">
        <div className="grid min-w-0 content-start gap-6">
          <dl className="grid grid-cols-1 gap-x-4 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]">
            <DescriptionRow layout="columns" term="Song Title">{title}</DescriptionRow>
            <DescriptionRow layout="columns" term="Artist">{s.artistName?.trim() || 'Unknown artist'}</DescriptionRow>
            <DescriptionRow layout="columns" term="Email">{s.user?.email || 'Not provided'}</DescriptionRow>
            <DescriptionRow layout="columns" term="Status">
              <StatusBadge status={s.status} />
            </DescriptionRow>
            <DescriptionRow layout="columns" term="Pricing Tier">
              {/* "Free", not "Free · Free": the price is shown only when it says something the name does not. */}
              {priceLabel === tierName ? tierName : `${tierName} · ${priceLabel}`}
            </DescriptionRow>
            <DescriptionRow layout="columns" term="Submitted">{formatLongDateTime(s.createdAt)}</DescriptionRow>
            {/* The artist's answer in the wizard (CONTRACT §22): it decides the upload's synthetic-media label. */}
            <DescriptionRow layout="columns" term="AI used">
              <span data-testid="desk-ai-usage">{s.aiUsage ? AI_USAGE_TEXTS.yes : AI_USAGE_TEXTS.no}</span>
            </DescriptionRow>
            <DescriptionRow layout="columns" term="Submission ID">
              <code className="text-xs break-all">{s.id}</code>
            </DescriptionRow>
          </dl>
          <DeskPanel submission={s} />
          {/* The artist's conversation with the team, beside the submission (CONTRACT §18). */}
          {s.user ? <DeskConversation artistId={s.user.id} submissionId={s.id} /> : null}
          <SocialLinks submission={s} />
          <UploadedImages submission={s} />
        </div>

        <div className="grid min-w-0 content-start gap-5">
          <TextSection label="Description" text={s.description} />
          <section className="grid gap-2">
            <h3 className="text-sm font-semibold">Music</h3>
            {/* CONTRACT §27: with new versions, the rounds to switch between; else the one version. */}
            <DeskRounds
              submission={s}
              fallback={
                s.musicFileUrl && uploadIdFromObjectPath(s.musicFileUrl) ? (
                  <WaveformPlayer submissionId={s.id} src={s.musicFileUrl} />
                ) : s.musicFileUrl ? (
                  <AudioPlayer src={s.musicFileUrl} downloadName={`${planDownloads(s)[0]?.baseName ?? 'music'}`} />
                ) : s.musicUrl ? (
                  <ExternalUrl url={s.musicUrl} />
                ) : (
                  <p className="text-sm text-muted-foreground">No music provided</p>
                )
              }
            />
          </section>
          {s.videoFileUrl || s.videoUrl ? (
            <section className="grid gap-2">
              <h3 className="text-sm font-semibold">Video</h3>
              {s.videoFileUrl ? (
                <video src={s.videoFileUrl} controls preload="metadata" className="max-h-72 w-full rounded-lg bg-black" />
              ) : (
                <ExternalUrl url={s.videoUrl!} />
              )}
            </section>
          ) : null}
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <DescriptionRow layout="columns" term="Genre">{s.genre || 'Not specified'}</DescriptionRow>
            <DescriptionRow layout="columns" term="Mood">{s.mood || 'Not specified'}</DescriptionRow>
          </dl>
          <TextSection label="Creative Direction" text={s.creativeDirection} />
          <TextSection label="Lyrics" text={s.hasLyrics ? s.lyrics : null} />
          <Separator />
          <div id="desk-rights" className="scroll-mt-16 outline-none">
            <RightsPanel submissionId={s.id} ended={workEndOf(s)} />
          </div>
          <div id="desk-production" className="scroll-mt-16 outline-none">
            <TeamProduction submissionId={s.id} tier={s.pricingTier} status={s.status} paymentStatus={s.paymentStatus} ended={workEndOf(s)} videoFileUrl={s.videoFileUrl} />
          </div>
          <Separator />
          <AdminNotes submission={s} />
          <Separator />
          <SubmissionHistory submissionId={s.id} />
        </div>
      </div>

      <DialogFooter className="border-t p-4 sm:px-6">
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
      </DialogFooter>
      <StatusChangeDialog submissions={[s]} open={statusOpen} onOpenChange={setStatusOpen} />
    </>
  );
}

/**
 * On a phone the details are one long column (about 3,900 px): these jump to what the team works
 * on there (issue 43 item 9). They stay at the top of the sheet as it scrolls; wider screens show
 * two columns and need them less.
 */
function SectionJumps({ publishable }: { publishable: boolean }) {
  const jump = (id: string) => () => {
    const target = document.getElementById(id);
    if (!target) return;
    // Its scroll-margin keeps it clear of this bar, which stays at the top of the sheet.
    target.scrollIntoView({ block: 'start', behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    // Keyboard and screen-reader users land where the eye does.
    target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  };
  const jumps = DETAILS_JUMPS.filter((j) => publishable || j.id !== 'desk-publishing');
  return (
    <nav aria-label={DETAILS_JUMPS_LABEL} className="sticky top-0 z-10 flex flex-wrap gap-2 border-b bg-popover px-4 py-2 md:hidden" data-testid="details-jumps">
      {jumps.map((j) => (
        <Button key={j.id} variant="secondary" size="sm" onClick={jump(j.id)}>
          {j.label}
        </Button>
      ))}
    </nav>
  );
}

function TextSection({ label, text }: { label: string; text: string | null | undefined }) {
  if (!text?.trim()) return null;
  return (
    <section className="grid gap-1.5">
      <h3 className="text-sm font-semibold">{label}</h3>
      <p className="max-h-60 overflow-y-auto text-sm break-words whitespace-pre-line text-muted-foreground">{text}</p>
    </section>
  );
}

function ExternalUrl({ url }: { url: string }) {
  const safe = /^https?:\/\//i.test(url);
  return safe ? (
    <a href={url} target="_blank" rel="noopener noreferrer" className="inline-flex min-w-0 items-center gap-1.5 text-sm break-all text-primary-soft hover:underline">
      <ExternalLink className="size-4 shrink-0" aria-hidden />
      {url}
    </a>
  ) : (
    <p className="text-sm break-all text-muted-foreground">{url}</p>
  );
}

function SocialLinks({ submission }: { submission: AdminSubmission }) {
  const links = socialLinksOf(submission.user);
  if (links.length === 0) return null;
  return (
    <section className="grid gap-2" aria-labelledby="social-heading">
      <h3 id="social-heading" className="text-sm font-semibold">
        User's Social Media Links
      </h3>
      <ul className="grid gap-1.5 text-sm sm:grid-cols-2">
        {links.map((link) => (
          <li key={link.platform} className="flex min-w-0 gap-2">
            <span className="shrink-0 text-muted-foreground">{link.platform}:</span>
            {link.href ? (
              <a href={link.href} target="_blank" rel="noopener noreferrer" className="truncate text-primary-soft hover:underline" title={link.href}>
                {link.handle}
              </a>
            ) : (
              <span className="truncate" title={link.handle}>
                {link.handle}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function UploadedImages({ submission: s }: { submission: AdminSubmission }) {
  const plan = planDownloads(s);
  const of = (kind: PlannedDownload['kind']) => plan.filter((p) => p.kind === kind);
  const artwork = of('artwork');
  const style = of('style');
  const characters = of('character');
  return (
    <section className="grid gap-4" aria-labelledby="images-heading">
      <h3 id="images-heading" className="text-sm font-semibold">
        Uploaded Images
      </h3>
      <ImageGroup title="Album Artwork" items={artwork} emptyText="No artwork uploaded" alt={() => `Album artwork of ${s.songTitle || 'Untitled'}`} />
      <ImageGroup title={`Style Reference Images (${style.length})`} items={style} emptyText="No style reference images" alt={(i) => `Style reference ${i + 1}`} />
      <ImageGroup
        title={`Character Reference Images (${characters.length})`}
        items={characters}
        emptyText="No character reference images"
        alt={(i) => `Character reference ${i + 1}`}
      />
    </section>
  );
}

function ImageGroup({ title, items, emptyText, alt }: { title: string; items: PlannedDownload[]; emptyText: string; alt(i: number): string }) {
  return (
    <div className="grid gap-2">
      <h4 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{title}</h4>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{emptyText}</p>
      ) : (
        <ul className="grid grid-cols-4 gap-2 sm:grid-cols-6">
          {items.map((item, i) => (
            <li key={item.url} className="group relative overflow-hidden rounded-md border bg-muted">
              <a href={item.url} target="_blank" rel="noopener noreferrer" className="block aspect-square">
                <img src={item.url} alt={alt(i)} loading="lazy" className="size-full object-cover transition-transform group-hover:scale-105" />
              </a>
              <Button
                variant="secondary"
                size="icon-sm"
                className="absolute right-1 bottom-1 size-7 opacity-90"
                aria-label={`Download ${alt(i)}`}
                onClick={() => void downloadOne(item)}
              >
                <Download aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function AdminNotes({ submission }: { submission: AdminSubmission }) {
  const [notes, setNotes] = useState(submission.adminNotes ?? '');
  const save = useSaveNotes(submission.id);
  return (
    <section className="grid gap-2">
      <label htmlFor="admin-notes" className="text-sm font-semibold">
        Admin Notes
      </label>
      <Textarea
        id="admin-notes"
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
        placeholder="Add internal notes about this submission..."
        rows={4}
        maxLength={ADMIN_NOTES_MAX}
      />
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">Only the label team sees these notes.</p>
        <Button
          size="sm"
          disabled={save.isPending}
          onClick={() =>
            save.mutate(notes, {
              onSuccess: () => toast(ADMIN_TOASTS.notesSaved),
              onError: () => toast(ADMIN_TOASTS.notesFailed),
            })
          }
        >
          {save.isPending ? <Spinner className="text-primary-foreground" /> : null}
          {save.isPending ? 'Saving...' : 'Save Notes'}
        </Button>
      </div>
    </section>
  );
}
