import { ArrowLeft, ArrowRight, X } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { createSubmissionSchema } from '@shared/submission-schemas';
import { isPaidTier } from '@shared/submissions';
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
import { useFileUploader } from './use-file-uploader';
import { useCreateSubmission } from './use-submissions';
import { WIZARD_STEPS, canLeaveStep, defaultWizardValues, toSubmissionInput, type WizardValues } from './wizard-form';

const STEP_DESCRIPTIONS = [
  'Send your track as a file or a link, add artwork and tell us about its release.',
  'The basics of your song.',
  'Choose how your video should look.',
  'Choose your plan.',
  'Check everything, accept the terms and send your track.',
] as const;

export function SubmitPage() {
  useDocumentTitle('Submit New Track');
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const [step, setStep] = useState(1);
  const form = useForm<WizardValues>({ defaultValues: defaultWizardValues(user?.artistName ?? '') });
  const create = useCreateSubmission();

  const set = (name: 'musicFileUrl' | 'artworkUrl') => (paths: string[]) => form.setValue(name, paths[0] ?? '');
  const musicUploader = useFileUploader('music', set('musicFileUrl'));
  const artworkUploader = useFileUploader('artwork', set('artworkUrl'));
  const styleUploader = useFileUploader('style', (paths) => form.setValue('styleReferenceUrls', paths));
  const characterUploader = useFileUploader('character', (paths) => form.setValue('characterImageUrls', paths));
  const uploading = [musicUploader, artworkUploader, styleUploader, characterUploader].some((u) => u.isBusy);

  const values = form.watch();
  const total = WIZARD_STEPS.length;
  const percent = Math.round(((step - 1) / total) * 100);
  const isLast = step === total;

  const go = (next: number) => {
    setStep(next);
    window.scrollTo(0, 0);
  };

  const submit = () => {
    const parsed = createSubmissionSchema.safeParse(toSubmissionInput(form.getValues()));
    if (!parsed.success) {
      toast({ title: 'Submission Failed', description: parsed.error.issues[0]?.message, variant: 'destructive' });
      return;
    }
    create.mutate(toSubmissionInput(form.getValues()), {
      onSuccess: (submission) => {
        toast({ title: 'Submission Created', description: `"${submission.songTitle}" was sent to the label.` });
        navigate(isPaidTier(submission.pricingTier) ? `/checkout/${submission.id}` : '/');
      },
      onError: (error) => toast({ title: 'Submission Failed', description: errorMessage(error), variant: 'destructive' }),
    });
  };

  return (
    <main className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-6 sm:px-6 sm:py-10">
      <header className="grid gap-3">
        <div className="flex items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">Submit New Track</h1>
          <Button asChild variant="ghost" size="icon" aria-label="Close">
            <Link href="/">
              <X aria-hidden />
            </Link>
          </Button>
        </div>
        <div className="flex items-center justify-between text-sm text-muted-foreground">
          <span>
            Step {step} of {total}
          </span>
          <span>{percent}% complete</span>
        </div>
        <Progress value={percent} aria-label="Wizard progress" />
        <ol className="hidden grid-cols-5 gap-2 text-xs sm:grid">
          {WIZARD_STEPS.map((name, index) => (
            <li key={name} className={index + 1 === step ? 'font-medium text-foreground' : index + 1 < step ? 'text-primary-soft' : 'text-muted-foreground'} aria-current={index + 1 === step ? 'step' : undefined}>
              {name}
            </li>
          ))}
        </ol>
      </header>

      <Card>
        <CardHeader>
          <CardTitle>{WIZARD_STEPS[step - 1]}</CardTitle>
          <CardDescription>{STEP_DESCRIPTIONS[step - 1]}</CardDescription>
        </CardHeader>
        <CardContent>
          {/* Every step stays mounted so uploads in progress and typed text survive moving between steps. */}
          <div hidden={step !== 1}>
            <StepMusicArtwork form={form} musicUploader={musicUploader} artworkUploader={artworkUploader} />
          </div>
          <div hidden={step !== 2}>
            <StepSongDetails form={form} />
          </div>
          <div hidden={step !== 3}>
            <StepVideoStyle form={form} styleUploader={styleUploader} characterUploader={characterUploader} />
          </div>
          <div hidden={step !== 4}>
            <StepPlan form={form} />
          </div>
          {step === 5 ? (
            <StepReview form={form} musicFileName={musicUploader.items[0]?.name} artworkPreviewUrl={artworkUploader.items[0]?.previewUrl} />
          ) : null}
        </CardContent>
      </Card>

      <nav aria-label="Wizard" className="flex items-center justify-between gap-3">
        <Button variant="outline" onClick={() => go(step - 1)} disabled={step === 1}>
          <ArrowLeft aria-hidden />
          Previous
        </Button>
        {isLast ? (
          <Button onClick={submit} disabled={!values.termsAccepted || create.isPending || create.isSuccess || uploading}>
            {create.isPending ? <Spinner className="text-primary-foreground" /> : null}
            Finish Upload
          </Button>
        ) : (
          <Button onClick={() => go(step + 1)} disabled={!canLeaveStep(step, values)}>
            Next
            <ArrowRight aria-hidden />
          </Button>
        )}
      </nav>
      {isLast && uploading ? <p className="text-right text-sm text-muted-foreground">Waiting for your uploads to finish...</p> : null}
    </main>
  );
}
