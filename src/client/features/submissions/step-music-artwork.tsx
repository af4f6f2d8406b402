import { Controller } from 'react-hook-form';
import { Link2, Upload } from 'lucide-react';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { ChoiceCards } from './choice-cards';
import { LinkPreview } from './link-preview';
import { UploadWidget } from './upload-widget';
import type { FileUploader } from './use-file-uploader';
import type { WizardForm } from './wizard-form';

interface StepProps {
  form: WizardForm;
  musicUploader: FileUploader;
  artworkUploader: FileUploader;
}

/** Step 1: the music (link or upload), the artwork and the release status (SPEC §2). */
export function StepMusicArtwork({ form, musicUploader, artworkUploader }: StepProps) {
  const method = form.watch('submissionMethod');
  const musicUrl = form.watch('musicUrl');
  const releaseDateOption = form.watch('releaseDateOption');

  return (
    <div className="grid gap-8">
      <section className="grid gap-4" aria-labelledby="music-heading">
        <h2 id="music-heading" className="text-base font-semibold">
          How would you like to send your music?
        </h2>
        <Controller
          control={form.control}
          name="submissionMethod"
          render={({ field }) => (
            <ChoiceCards
              name="method"
              label="Submission method"
              value={field.value}
              onChange={field.onChange}
              choices={[
                { value: 'upload', label: 'Upload a file', description: 'MP3, WAV, OGG or MP4, up to 100 MB', icon: <Upload className="size-4 text-primary-soft" aria-hidden /> },
                { value: 'link', label: 'Share a link', description: 'YouTube, SoundCloud, Spotify or any public page', icon: <Link2 className="size-4 text-primary-soft" aria-hidden /> },
              ]}
            />
          )}
        />
        <div hidden={method !== 'upload'}>
          <UploadWidget uploader={musicUploader} label="Music file" hint="MP3, WAV, OGG or MP4 · 1 file · max 100 MB" />
        </div>
        {method === 'link' ? (
          <div className="grid gap-3">
            <FormField id="music-url" label="Link to your music">
              <Input type="url" inputMode="url" placeholder="https://www.youtube.com/watch?v=..." autoComplete="off" {...form.register('musicUrl')} />
            </FormField>
            <LinkPreview url={musicUrl} />
          </div>
        ) : null}
      </section>

      <section className="grid gap-4" aria-labelledby="artwork-heading">
        <h2 id="artwork-heading" className="text-base font-semibold">
          Artwork <span className="font-normal text-muted-foreground">(optional)</span>
        </h2>
        <UploadWidget uploader={artworkUploader} label="Cover artwork" hint="JPG, PNG or WEBP · 1 image · max 10 MB" />
      </section>

      <section className="grid gap-4" aria-labelledby="release-heading">
        <h2 id="release-heading" className="text-base font-semibold">
          Release status
        </h2>
        <Controller
          control={form.control}
          name="releaseStatus"
          render={({ field }) => (
            <ChoiceCards
              name="release-status"
              label="Release status"
              value={field.value}
              onChange={field.onChange}
              choices={[
                { value: 'released', label: 'Released', description: 'The track is already out' },
                { value: 'unreleased', label: 'Unreleased', description: 'The track has not been released yet' },
              ]}
            />
          )}
        />
        <p className="text-sm font-medium">Release date</p>
        <Controller
          control={form.control}
          name="releaseDateOption"
          render={({ field }) => (
            <ChoiceCards
              name="release-date-option"
              label="Release date"
              className="sm:grid-cols-3"
              value={field.value}
              onChange={field.onChange}
              choices={[
                { value: 'specific', label: 'Specific date' },
                { value: 'undecided', label: 'Undecided' },
                { value: 'asap', label: 'As soon as possible' },
              ]}
            />
          )}
        />
        {releaseDateOption === 'specific' ? (
          <FormField id="release-date" label="Release date" className="max-w-xs">
            <Input type="date" {...form.register('releaseDate')} />
          </FormField>
        ) : null}
      </section>
    </div>
  );
}
