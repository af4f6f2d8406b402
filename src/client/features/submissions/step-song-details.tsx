import { GENRE_CHOICES } from '@shared/genres';
import { ARTIST_NAME_MAX } from '@shared/auth';
import { MOOD_MAX, SUBMISSION_TEXT_MAX } from '@shared/submissions';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { Textarea } from '@client/components/ui/textarea';
import { WizardCheckbox } from './labelled-switch';
import { SUBMISSION_MESSAGES } from '@shared/submission-schemas';
import { missingLyrics, type WizardForm } from './wizard-form';
import { OwnersEditor } from './owners-editor';
import { ContentIdQuestions } from './content-id-questions';

const Required = () => (
  <span className="text-destructive-soft" aria-hidden>
    *
  </span>
);

/** Step 2: artist name, song title, lyrics, description and AI usage (SPEC §2); the owners and Content ID (CONTRACT §22). */
export function StepSongDetails({ form }: { form: WizardForm }) {
  const hasLyrics = form.watch('hasLyrics');
  const lyricsMissing = missingLyrics({ hasLyrics, lyrics: form.watch('lyrics') });
  return (
    <div className="grid gap-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="artist-name" label={<>Artist name <Required /></>}>
          <Input autoComplete="off" maxLength={ARTIST_NAME_MAX} aria-required {...form.register('artistName')} />
        </FormField>
        <FormField id="song-title" label={<>Song title <Required /></>}>
          <Input autoComplete="off" maxLength={SUBMISSION_TEXT_MAX.songTitle} aria-required {...form.register('songTitle')} />
        </FormField>
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="genre" label="Genre">
          <select
            className="h-10 w-full rounded-md border border-input bg-background/60 px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
            {...form.register('genre')}
          >
            <option value="">Choose a genre</option>
            {GENRE_CHOICES.map((genre) => (
              <option key={genre} value={genre}>
                {genre}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="mood" label="Mood" hint="In a few words: e.g. cold, hypnotic, melancholic.">
          <Input autoComplete="off" maxLength={MOOD_MAX} {...form.register('mood')} />
        </FormField>
      </div>

      <WizardCheckbox form={form} field="hasLyrics" id="has-lyrics" label="This song has lyrics" description="Lyrics help us time the video to the words." />
      {hasLyrics ? (
        <div className="grid gap-5">
          <FormField id="lyrics-language" label="Lyrics language" className="sm:max-w-xs">
            <Input placeholder="e.g. English" maxLength={SUBMISSION_TEXT_MAX.lyricsLanguage} {...form.register('lyricsLanguage')} />
          </FormField>
          {/* Said beside the field rather than as an error: Next stays disabled until the lyrics are in. */}
          <FormField
            id="lyrics"
            label={<>Lyrics <Required /> <span className="font-normal text-muted-foreground">(required)</span></>}
            hint={lyricsMissing ? SUBMISSION_MESSAGES.lyrics : undefined}
          >
            <Textarea rows={8} aria-required maxLength={SUBMISSION_TEXT_MAX.lyrics} {...form.register('lyrics')} />
          </FormField>
        </div>
      ) : null}

      <FormField id="description" label="Description" hint="Tell us about the song: its story, mood and anything we should know.">
        <Textarea rows={4} maxLength={SUBMISSION_TEXT_MAX.description} {...form.register('description')} />
      </FormField>

      <WizardCheckbox
        form={form}
        field="aiUsage"
        id="ai-usage"
        label="AI was used to create this song"
        description="Tick this if any part of the music, vocals or lyrics was generated with AI tools."
      />

      <OwnersEditor form={form} />
      <ContentIdQuestions form={form} />
    </div>
  );
}
