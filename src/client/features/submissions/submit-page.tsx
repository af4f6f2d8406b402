import { ArrowLeft, ArrowRight, Check, CloudOff, CreditCard, X } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useEffect, useState } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { createSubmissionSchema, type AttachedFile, type OwnSubmission, type Submission } from '@shared/submission-schemas';
import { TIERS, formatUsd, isPaidTier } from '@shared/submissions';
import type { PublicUser } from '@shared/auth';
import { displayName } from '@shared/users';
import { fileNameWithExtension } from '@shared/downloads';
import { ArtistHeader } from '@client/components/artist-header';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Progress } from '@client/components/ui/progress';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { useAuth } from '@client/lib/auth';
import { toast } from '@client/lib/toast';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { StepMusicArtwork } from './step-music-artwork';
import { StepPlan } from './step-plan';
import { StepReview } from './step-review';
import { StepSongDetails } from './step-song-details';
import { StepVideoStyle } from './step-video-style';
import type { DraftSaveState } from './draft-saver';
import { useDraftAutosave } from './use-draft-autosave';
import { useFileUploader, type FileUploader } from './use-file-uploader';
import { useCreateSubmission, useDraft, useSubmitDraft } from '@client/entities/submission/submission-queries';
import {
  STEP_TITLES,
  defaultWizardValues,
  stepBlocker,
  toDraftInput,
  toSubmissionInput,
  wizardSteps,
  wizardValuesOf,
  type WizardStepId,
  type WizardValues,
} from './wizard-form';

const STEP_DESCRIPTIONS: Record<WizardStepId, (video: boolean) => string> = {
  media: (video) =>
    video
      ? 'Send your finished video as a file or a link, add artwork and tell us about its release.'
      : 'Send your track as a file or a link, add artwork and tell us about its release.',
  details: () => 'The basics of your song.',
  style: () => 'Choose how your video should look.',
  plan: () => 'Choose your plan.',
  review: (video) => `Check everything, accept the terms and send your ${video ? 'video' : 'track'}.`,
};

/** /submit, or /submit?draft={id} to continue a saved draft (CONTRACT §12). */
export function SubmitPage() {
  useDocumentTitle('Submit New Track');
  const { user } = useAuth();
  // Read once: when the wizard saves its first draft it writes the id into the address, which must not reload it.
  const [draftId] = useState(() => new URLSearchParams(window.location.search).get('draft'));
  const draft = useDraft(draftId);
  if (!user) return null;

  let body;
  if (draftId && draft.isPending) {
    body = (
      <div className="flex justify-center py-16" role="status">
        <Spinner className="size-6" label="Loading your draft" />
      </div>
    );
  } else if (draftId && (draft.isError || draft.data?.status !== 'draft')) {
    if (draft.data && draft.data.status !== 'draft') return <Redirect to="/dashboard" replace />;
    body = (
      <Card>
        <CardContent className="grid gap-3 pt-6">
          <p role="alert">This draft could not be opened: {errorMessage(draft.error)}</p>
          <Button asChild variant="outline" className="justify-self-start">
            <Link href="/dashboard">Return to Dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    );
  } else {
    body = <Wizard user={user} draft={draftId ? (draft.data ?? null) : null} />;
  }

  return (
    <div className="min-h-dvh">
      <ArtistHeader user={user} />
      <main className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-6 sm:px-6 sm:py-10">{body}</main>
    </div>
  );
}

function restoredFiles(files: AttachedFile[], paths: (string | null)[]) {
  return paths.flatMap((path) => {
    const file = files.find((f) => f.objectPath === path);
    return file ? [{ objectPath: file.objectPath, name: fileNameWithExtension(file.fileName, file.contentType), size: file.size ?? 0 }] : [];
  });
}

function Wizard({ user, draft }: { user: PublicUser; draft: OwnSubmission | null }) {
  const [, navigate] = useLocation();
  // SPEC §2 prefills the artist name; an artist who skipped the profile (a Google sign-up often
  // does) found it empty, so their own name stands in, to be changed here (issue 36).
  const [blank] = useState(() => defaultWizardValues(displayName(user)));
  const form = useForm<WizardValues>({ defaultValues: draft ? wizardValuesOf(draft) : blank });
  const values = form.watch();
  const steps = wizardSteps(values.submissionType);
  const [step, setStep] = useState(() => Math.min(Math.max(draft?.draftStep ?? 1, 1), steps.length));
  const create = useCreateSubmission();
  const submitDraft = useSubmitDraft();
  const autosave = useDraftAutosave({
    form,
    step,
    draftId: draft?.id ?? null,
    onCreated: (id) => window.history.replaceState(window.history.state, '', `/submit?draft=${encodeURIComponent(id)}`),
  });

  const set = (name: 'musicFileUrl' | 'videoFileUrl' | 'artworkUrl') => (paths: string[]) => form.setValue(name, paths[0] ?? '', { shouldDirty: true });
  const musicUploader = useFileUploader('music', set('musicFileUrl'));
  const videoUploader = useFileUploader('video', set('videoFileUrl'));
  const artworkUploader = useFileUploader('artwork', set('artworkUrl'));
  const styleUploader = useFileUploader('style', (paths) => form.setValue('styleReferenceUrls', paths));
  const characterUploader = useFileUploader('character', (paths) => form.setValue('characterImageUrls', paths));
  const uploaders: FileUploader[] = [musicUploader, videoUploader, artworkUploader, styleUploader, characterUploader];
  const uploading = uploaders.some((u) => u.isBusy);

  // A continued draft shows its uploads again, as uploaded.
  const [restoredFrom] = useState(draft);
  useEffect(() => {
    if (!restoredFrom) return;
    const files = restoredFrom.files;
    musicUploader.restore(restoredFiles(files, [restoredFrom.musicFileUrl]));
    videoUploader.restore(restoredFiles(files, [restoredFrom.videoFileUrl]));
    artworkUploader.restore(restoredFiles(files, [restoredFrom.artworkUrl]));
    styleUploader.restore(restoredFiles(files, restoredFrom.styleReferenceUrls));
    characterUploader.restore(restoredFiles(files, restoredFrom.characterImageUrls));
    // Once, on mount: the uploaders' functions are stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [restoredFrom]);

  const total = steps.length;
  const current = steps[Math.min(step, total) - 1]!;
  const percent = Math.round(((step - 1) / total) * 100);
  const isLast = step === total;
  const blocker = isLast ? null : stepBlocker(current, values);
  const video = values.submissionType === 'video';
  const paid = isPaidTier(values.pricingTier);
  const busy = create.isPending || submitDraft.isPending || create.isSuccess || submitDraft.isSuccess;

  const go = (next: number) => {
    setStep(next);
    window.scrollTo(0, 0);
  };

  const onSubmitted = (submission: Submission) => {
    autosave.stop();
    const title = `"${submission.songTitle}"`;
    if (isPaidTier(submission.pricingTier)) {
      toast({ title: 'Submission Created', description: `${title} is saved. Complete the payment and it goes to the label.` });
      navigate(`/checkout/${submission.id}`);
    } else {
      toast({ title: 'Submission Created', description: `${title} was sent to the label.` });
      navigate('/');
    }
  };
  const onFailed = (error: unknown) => toast({ title: 'Submission Failed', description: errorMessage(error), variant: 'destructive' });

  const submit = async () => {
    const values = form.getValues();
    const parsed = createSubmissionSchema.safeParse(toSubmissionInput(values));
    if (!parsed.success) {
      onFailed(new Error(parsed.error.issues[0]?.message));
      return;
    }
    const id = await autosave.flush();
    if (id) submitDraft.mutate({ id, input: toDraftInput(values, step) }, { onSuccess: onSubmitted, onError: onFailed });
    else create.mutate(toSubmissionInput(values), { onSuccess: onSubmitted, onError: onFailed });
  };

  return (
    <>
      <header className="grid gap-3">
        <div className="flex items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">{video ? 'Submit a Finished Video' : 'Submit New Track'}</h1>
          <div className="flex items-center gap-2">
            <SaveState state={autosave.state} />
            <Button asChild variant="ghost" size="icon" aria-label="Close">
              <Link href="/">
                <X aria-hidden />
              </Link>
            </Button>
          </div>
        </div>
        <div className="flex items-center justify-between text-sm text-muted-foreground">
          <span>
            Step {step} of {total}
          </span>
          <span>{percent}% complete</span>
        </div>
        <Progress value={percent} aria-label="Wizard progress" />
        <ol className="hidden gap-2 text-xs sm:grid" style={{ gridTemplateColumns: `repeat(${total}, minmax(0, 1fr))` }}>
          {steps.map((id, index) => (
            <li
              key={id}
              className={index + 1 === step ? 'font-medium text-foreground' : index + 1 < step ? 'text-primary-soft' : 'text-muted-foreground'}
              aria-current={index + 1 === step ? 'step' : undefined}
            >
              {STEP_TITLES[id](values.submissionType)}
            </li>
          ))}
        </ol>
      </header>

      <Card>
        <CardHeader>
          <CardTitle>{STEP_TITLES[current](values.submissionType)}</CardTitle>
          <CardDescription>{STEP_DESCRIPTIONS[current](video)}</CardDescription>
        </CardHeader>
        <CardContent>
          {/* Every step stays mounted so uploads in progress and typed text survive moving between steps. */}
          <div hidden={current !== 'media'}>
            <StepMusicArtwork form={form} musicUploader={musicUploader} videoUploader={videoUploader} artworkUploader={artworkUploader} />
          </div>
          <div hidden={current !== 'details'}>
            <StepSongDetails form={form} />
          </div>
          <div hidden={current !== 'style'}>
            <StepVideoStyle form={form} styleUploader={styleUploader} characterUploader={characterUploader} />
          </div>
          <div hidden={current !== 'plan'}>
            <StepPlan form={form} />
          </div>
          {current === 'review' ? (
            <StepReview form={form} fileName={(video ? videoUploader : musicUploader).items[0]?.name} artworkPreviewUrl={artworkUploader.items[0]?.previewUrl} />
          ) : null}
        </CardContent>
      </Card>

      {isLast && paid ? (
        <p className="flex items-start gap-2 rounded-lg border border-primary/30 bg-primary/5 p-3 text-sm" data-testid="payment-next">
          <CreditCard className="mt-0.5 size-4 shrink-0 text-primary-soft" aria-hidden />
          <span>
            Payment comes next: you pay {formatUsd(TIERS[values.pricingTier].priceUsd)} for the {TIERS[values.pricingTier].name} plan on the
            following page, and your submission goes to the label once it is paid.
          </span>
        </p>
      ) : null}

      <nav aria-label="Wizard" className="flex flex-wrap items-center justify-between gap-3">
        <Button variant="outline" onClick={() => go(step - 1)} disabled={step === 1}>
          <ArrowLeft aria-hidden />
          Previous
        </Button>
        {isLast ? (
          <Button onClick={() => void submit()} disabled={!values.termsAccepted || busy || uploading}>
            {busy ? <Spinner className="text-primary-foreground" /> : null}
            {paid ? 'Continue to Payment' : 'Finish Upload'}
          </Button>
        ) : (
          <div className="flex min-w-0 flex-1 items-center justify-end gap-3">
            {blocker ? (
              <p id="next-blocked" className="min-w-0 text-right text-sm text-muted-foreground" data-testid="next-blocked">
                {blocker}
              </p>
            ) : null}
            <Button onClick={() => go(step + 1)} disabled={blocker !== null} aria-describedby={blocker ? 'next-blocked' : undefined} className="shrink-0">
              Next
              <ArrowRight aria-hidden />
            </Button>
          </div>
        )}
      </nav>
      {isLast && !values.termsAccepted ? (
        <p className="-mt-3 text-right text-sm text-muted-foreground" data-testid="next-blocked">
          Tick the box above to accept the terms and send it.
        </p>
      ) : null}
      {isLast && uploading ? <p className="text-right text-sm text-muted-foreground">Waiting for your uploads to finish...</p> : null}
    </>
  );
}

/** Where the draft stands, quietly, beside the close button. */
function SaveState({ state }: { state: DraftSaveState }) {
  if (state === 'idle') return null;
  return (
    <span role="status" aria-live="polite" data-testid="draft-state" className="flex items-center gap-1.5 text-xs text-muted-foreground">
      {state === 'saving' ? (
        <>
          <Spinner className="size-3" />
          Saving draft...
        </>
      ) : state === 'saved' ? (
        <>
          <Check className="size-3.5 text-success" aria-hidden />
          Draft saved
        </>
      ) : (
        <>
          <CloudOff className="size-3.5 text-warning" aria-hidden />
          Draft not saved
        </>
      )}
    </span>
  );
}
