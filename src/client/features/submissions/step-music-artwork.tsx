import { Controller } from 'react-hook-form';
import { Clapperboard, Link2, Music, Upload } from 'lucide-react';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { ChoiceCards } from './choice-cards';
import { LinkPreview } from './link-preview';
import { UploadWidget } from './upload-widget';
import { FILE_FORMATS, FILE_LIMITS, RELEASE_DATE_OPTIONS, RELEASE_DATE_OPTION_LABELS, SUBMISSION_TYPE_LABELS, formatBytes } from '@shared/submissions';
import type { FileUploader } from './use-file-uploader';
import type { WizardForm } from './wizard-form';

const videoLimit = formatBytes(FILE_LIMITS.videoBytes);
const musicLimit = formatBytes(FILE_LIMITS.musicBytes);
const imageLimit = formatBytes(FILE_LIMITS.imageBytes);

interface StepProps {
  form: WizardForm;
  musicUploader: FileUploader;
  videoUploader: FileUploader;
  artworkUploader: FileUploader;
}

/** Step 1: the music or the finished video (link or upload), the artwork and the release status. */
export function StepMusicArtwork({ form, musicUploader, videoUploader, artworkUploader }: StepProps) {
  const type = form.watch('submissionType');
  const method = form.watch('submissionMethod');
  const musicUrl = form.watch('musicUrl');
  const videoUrl = form.watch('videoUrl');
  const releaseDateOption = form.watch('releaseDateOption');

  return (
    <div className="grid gap-8">
      <section className="grid gap-4" aria-labelledby="type-heading">
        <h2 id="type-heading" className="text-base font-semibold">
          What are you sending?
        </h2>
        <Controller
          control={form.control}
          name="submissionType"
          render={({ field }) => (
            <ChoiceCards
              name="type"
              label="Submission type"
              value={field.value}
              onChange={field.onChange}
              choices={[
                { value: 'track', label: SUBMISSION_TYPE_LABELS.track, description: 'The label makes the video for your song', icon: <Music className="size-4 text-primary-soft" aria-hidden /> },
                { value: 'video', label: SUBMISSION_TYPE_LABELS.video, description: 'Your own video, published on the channel as it is', icon: <Clapperboard className="size-4 text-primary-soft" aria-hidden /> },
              ]}
            />
          )}
        />
      </section>

      {/* Hidden rather than unmounted: an upload in progress survives a look at the other path. */}
      <div hidden={type !== 'video'}>
        <section className="grid gap-4" aria-labelledby="video-heading">
          <h2 id="video-heading" className="text-base font-semibold">
            How would you like to send your video?
          </h2>
          <Controller
            control={form.control}
            name="submissionMethod"
            render={({ field }) => (
              <ChoiceCards
                name="video-method"
                label="Video submission method"
                value={field.value}
                onChange={field.onChange}
                choices={[
                  { value: 'upload', label: 'Upload a file', description: `${FILE_FORMATS.video}, up to ${videoLimit}`, icon: <Upload className="size-4 text-primary-soft" aria-hidden /> },
                  { value: 'link', label: 'Share a link', description: 'YouTube, Vimeo, a cloud drive or any public page', icon: <Link2 className="size-4 text-primary-soft" aria-hidden /> },
                ]}
              />
            )}
          />
          <div hidden={method !== 'upload'}>
            <UploadWidget uploader={videoUploader} label="Video file" hint={`${FILE_FORMATS.video} · 1 file · max ${videoLimit} · a dropped connection resumes`} />
          </div>
          {method === 'link' ? (
            <div className="grid gap-3">
              <FormField id="video-url" label="Video link" hint="YouTube, Vimeo, a cloud drive or any public page where the video can be downloaded.">
                <Input type="url" inputMode="url" placeholder="https://vimeo.com/..." autoComplete="off" {...form.register('videoUrl')} />
              </FormField>
              <LinkPreview url={videoUrl} />
            </div>
          ) : null}
        </section>
      </div>

      <div hidden={type === 'video'}>
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
                { value: 'upload', label: 'Upload a file', description: `${FILE_FORMATS.music}, up to ${musicLimit}`, icon: <Upload className="size-4 text-primary-soft" aria-hidden /> },
                { value: 'link', label: 'Share a link', description: 'YouTube, SoundCloud, Spotify or any public page', icon: <Link2 className="size-4 text-primary-soft" aria-hidden /> },
              ]}
            />
          )}
        />
        <div hidden={method !== 'upload'}>
          <UploadWidget uploader={musicUploader} label="Music file" hint={`${FILE_FORMATS.music} · 1 file · max ${musicLimit}`} />
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
      </div>

      <section className="grid gap-4" aria-labelledby="artwork-heading">
        <h2 id="artwork-heading" className="text-base font-semibold">
          Artwork <span className="font-normal text-muted-foreground">(optional)</span>
        </h2>
        <UploadWidget uploader={artworkUploader} label="Cover artwork" hint={`${FILE_FORMATS.image} · 1 image · max ${imageLimit}`} />
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
              choices={RELEASE_DATE_OPTIONS.map((value) => ({ value, label: RELEASE_DATE_OPTION_LABELS[value] }))}
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
