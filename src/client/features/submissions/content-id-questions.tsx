import { CONTENT_ID_ANSWERS, CONTENT_ID_LABELS, DISTRIBUTOR_MAX, RIGHTS_MESSAGES } from '@shared/rights';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { isrcValid, type WizardForm } from './wizard-form';

/**
 * Content ID (CONTRACT §22): is the track with a distributor or in Content ID? If it is (or the
 * artist does not know), the team asks that distributor to allowlist the label's channel before
 * publishing, so the label's video is not claimed. The ISRC names the recording in that request.
 */
export function ContentIdQuestions({ form }: { form: WizardForm }) {
  const answer = form.watch('contentId');
  const isrc = form.watch('isrc');
  return (
    <fieldset className="grid gap-3 rounded-lg border bg-background/40 p-4" data-testid="content-id-questions">
      {/* A short legend: a long one wraps across the fieldset's border on a phone. */}
      <legend className="px-1 text-sm font-medium">Content ID</legend>
      <p className="text-sm">
        Is this track with a distributor or in YouTube’s Content ID?
      </p>
      <div className="flex flex-wrap gap-4" role="radiogroup" aria-label="Content ID">
        {CONTENT_ID_ANSWERS.map((value) => (
          <label key={value} className="flex cursor-pointer items-center gap-2 text-sm">
            <input type="radio" value={value} className="size-4 accent-primary" {...form.register('contentId')} />
            {CONTENT_ID_LABELS[value]}
          </label>
        ))}
      </div>
      <p className="text-xs text-muted-foreground">
        Distributors (DistroKid, CD Baby, AWAL…) often register tracks in Content ID. We then ask yours to allowlist our channel
        before we publish, so the video is not claimed.
      </p>
      {answer !== 'no' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="distributor" label="Distributor">
            <Input autoComplete="off" maxLength={DISTRIBUTOR_MAX} placeholder="e.g. DistroKid" {...form.register('distributor')} />
          </FormField>
          <FormField id="isrc" label="ISRC" hint="12 characters, e.g. US-RC1-76-07839" error={isrc && !isrcValid(isrc) ? RIGHTS_MESSAGES.isrc : undefined}>
            <Input autoComplete="off" maxLength={15} placeholder="CC-XXX-YY-NNNNN" {...form.register('isrc')} />
          </FormField>
        </div>
      ) : null}
    </fieldset>
  );
}
