import { Link2, Paperclip, Send } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import type { Submission } from '@shared/submission-schemas';
import { FILE_FORMATS, MAX_ROUND } from '@shared/submissions';
import { VERSION_NOTE_MAX, VERSION_TEXTS } from '@shared/versions';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Progress } from '@client/components/ui/progress';
import { Textarea } from '@client/components/ui/textarea';
import { errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { cn } from '@client/lib/utils';
import { uploadVersionFile, useSendVersion } from '@client/entities/submission/version-queries';

type Source = 'file' | 'link';

/**
 * CONTRACT §27: the artist answers the label's request for changes with a new version, a file
 * (resumable, so a phone's dropped connection continues) or a link, and a note on what changed.
 */
export function NewVersionForm({ submission: s }: { submission: Submission }) {
  const video = s.submissionType === 'video';
  const [source, setSource] = useState<Source>('file');
  const [url, setUrl] = useState('');
  const [note, setNote] = useState('');
  const [chosen, setChosen] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const files = useRef<HTMLInputElement>(null);
  const send = useSendVersion(s.id);
  const busy = progress !== null || send.isPending;
  const left = MAX_ROUND - s.round;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    try {
      let body: { objectPath: string } | { url: string };
      if (source === 'file') {
        if (!chosen) return;
        setProgress(0);
        body = { objectPath: await uploadVersionFile(chosen, video ? 'video' : 'music', setProgress) };
      } else {
        if (!url.trim()) return;
        body = { url: url.trim() };
      }
      setProgress(null);
      await send.mutateAsync({ ...body, note: note.trim() || null });
      toast(VERSION_TEXTS.sent);
    } catch (error) {
      toast({ ...VERSION_TEXTS.failed, description: errorMessage(error) || VERSION_TEXTS.failed.description, variant: 'destructive' });
    } finally {
      setProgress(null);
    }
  };

  return (
    <section aria-labelledby="new-version-heading" data-testid="new-version" className="grid gap-3 rounded-lg border border-warning/40 bg-warning/5 p-4">
      <h3 id="new-version-heading" className="text-sm font-semibold">
        {VERSION_TEXTS.uploadHeading}
      </h3>
      <p className="text-sm text-muted-foreground">
        {VERSION_TEXTS.uploadDescription} {left === 1 ? 'This is the last new version this submission can take.' : `You can send ${left} more new versions.`}
      </p>
      <form onSubmit={submit} className="grid gap-3">
        <div role="radiogroup" aria-label="Send the new version as" className="grid grid-cols-2 gap-2 sm:max-w-sm">
          {(['file', 'link'] as const).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={source === value}
              onClick={() => setSource(value)}
              className={cn(
                'inline-flex h-9 items-center justify-center gap-2 rounded-md border text-sm font-medium',
                source === value ? 'border-primary bg-primary/15 text-foreground' : 'border-input text-muted-foreground hover:bg-accent',
              )}
            >
              {value === 'file' ? <Paperclip className="size-4" aria-hidden /> : <Link2 className="size-4" aria-hidden />}
              {value === 'file' ? 'Upload a file' : 'Paste a link'}
            </button>
          ))}
        </div>
        {source === 'file' ? (
          <div className="grid gap-2">
            <Label htmlFor="new-version-file">{video ? `New video (${FILE_FORMATS.video})` : `New mix (${FILE_FORMATS.music})`}</Label>
            <div className="flex flex-wrap items-center gap-2">
              <input
                id="new-version-file"
                ref={files}
                type="file"
                accept={video ? 'video/mp4,video/quicktime,video/webm,.mp4,.mov,.webm' : 'audio/*,video/mp4,.mp3,.wav,.ogg,.mp4'}
                className="peer sr-only"
                onChange={(event) => setChosen(event.target.files?.[0] ?? null)}
              />
              <label
                htmlFor="new-version-file"
                className="inline-flex h-9 cursor-pointer items-center gap-2 rounded-md border border-input bg-secondary px-3 text-sm font-medium text-secondary-foreground peer-focus-visible:ring-2 peer-focus-visible:ring-ring hover:bg-accent"
              >
                <Paperclip className="size-4" aria-hidden />
                Choose a file
              </label>
              <span className="min-w-0 text-sm break-all text-muted-foreground" data-testid="new-version-chosen" aria-live="polite">
                {chosen ? chosen.name : 'None chosen yet'}
              </span>
            </div>
            {progress !== null ? <Progress value={progress} className="h-1.5" aria-label={`Upload progress of ${chosen?.name ?? 'the file'}`} /> : null}
          </div>
        ) : (
          <div className="grid gap-2">
            <Label htmlFor="new-version-url">Link to the new version</Label>
            <Input id="new-version-url" type="url" inputMode="url" placeholder="https://" value={url} onChange={(e) => setUrl(e.target.value)} />
          </div>
        )}
        <div className="grid gap-2">
          <Label htmlFor="new-version-note">What changed (optional)</Label>
          <Textarea
            id="new-version-note"
            rows={3}
            maxLength={VERSION_NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder="Vocals up 3 dB, guitars tucked under, a shorter intro..."
          />
        </div>
        <Button type="submit" className="justify-self-start" disabled={busy || (source === 'file' ? !chosen : !url.trim())}>
          <Send aria-hidden />
          {progress !== null ? `Uploading ${progress}%...` : send.isPending ? 'Sending...' : 'Send new version'}
        </Button>
      </form>
    </section>
  );
}
