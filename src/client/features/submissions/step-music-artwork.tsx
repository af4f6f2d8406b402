import { Clapperboard, Link2, Music, Upload } from 'lucide-react';
import { useState } from 'react';
import { SUBMISSION_MESSAGES } from '@shared/submission-schemas';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { WizardChoiceCards } from './choice-cards';
import { LinkPreview } from './link-preview';
import { UploadWidget } from './upload-widget';
import { FILE_FORMATS, FILE_LIMITS, RELEASE_DATE_OPTION_LABELS, SUBMISSION_TYPE_LABELS, formatBytes, isHttpLink, releaseDateOptionsFor, withLinkScheme } from '@shared/submissions';
import type { FileUploader } from './use-file-uploader';
import { missingReleaseDate, type WizardForm } from './wizard-form';

const videoLimit = formatBytes(FILE_LIMITS.videoBytes);
const musicLimit = formatBytes(FILE_LIMITS.musicBytes);
const imageLimit = formatBytes(FILE_LIMITS.imageBytes);

/** The two ways to send the main file, a track's music or a finished video: what differs between them. */
const MEDIA = {
  video: {
    id: 'video',
    heading: 'How would you like to send your video?',
    choicesName: 'video-method',
    choicesLabel: 'Video submission method',
    uploadDescription: `${FILE_FORMATS.video}, up to ${videoLimit}`,
    linkDescription: 'YouTube, Vimeo, a cloud drive or any public page',
    fileLabel: 'Video file',
    fileHint: `${FILE_FORMATS.video} · 1 file · max ${videoLimit} · a dropped connection resumes`,
    urlField: 'videoUrl',
    urlLabel: 'Video link',
    urlHint: 'YouTube, Vimeo, a cloud drive or any public page where the video can be downloaded.',
    urlPlaceholder: 'https://vimeo.com/...',
    urlInvalid: SUBMISSION_MESSAGES.videoUrl,
  },
  music: {
    id: 'music',
    heading: 'How would you like to send your music?',
    choicesName: 'method',
    choicesLabel: 'Submission method',
    uploadDescription: `${FILE_FORMATS.music}, up to ${musicLimit}`,
    linkDescription: 'YouTube, SoundCloud, Spotify or any public page',
    fileLabel: 'Music file',
    fileHint: `${FILE_FORMATS.music} · 1 file · max ${musicLimit}`,
    urlField: 'musicUrl',
    urlLabel: 'Link to your music',
    urlHint: undefined,
    urlPlaceholder: 'https://www.youtube.com/watch?v=...',
    urlInvalid: SUBMISSION_MESSAGES.musicUrl,
  },
} as const;

/** Upload a file or share a link, for the music or the video: both write `submissionMethod`. */
function MediaSource({ form, media, uploader, hidden }: { form: WizardForm; media: (typeof MEDIA)[keyof typeof MEDIA]; uploader: FileUploader; hidden: boolean }) {
  const method = form.watch('submissionMethod');
  const url = form.watch(media.urlField);
  // Judged once the person leaves the field, not at every keystroke of a link still being typed.
  const [judged, setJudged] = useState(false);
  const linkError = judged && url.trim() !== '' && !isHttpLink(url) ? media.urlInvalid : undefined;
  const field = form.register(media.urlField);
  return (
    <div hidden={hidden}>
      <section className="grid gap-4" aria-labelledby={`${media.id}-heading`}>
        <h2 id={`${media.id}-heading`} className="text-base font-semibold">
          {media.heading}
        </h2>
        <WizardChoiceCards
          form={form}
          field="submissionMethod"
          name={media.choicesName}
          label={media.choicesLabel}
          choices={[
            { value: 'upload', label: 'Upload a file', description: media.uploadDescription, icon: <Upload className="size-4 text-primary-soft" aria-hidden /> },
            { value: 'link', label: 'Share a link', description: media.linkDescription, icon: <Link2 className="size-4 text-primary-soft" aria-hidden /> },
          ]}
        />
        <div hidden={method !== 'upload'}>
          <UploadWidget uploader={uploader} label={media.fileLabel} hint={media.fileHint} />
        </div>
        {method === 'link' ? (
          <div className="grid gap-3">
            <FormField id={`${media.id}-url`} label={media.urlLabel} hint={media.urlHint} error={linkError}>
              <Input
                type="url"
                inputMode="url"
                placeholder={media.urlPlaceholder}
                autoComplete="off"
                {...field}
                onBlur={(event) => {
                  // "soundcloud.com/nyx/thing" is what people paste: it becomes the https link they meant.
                  const whole = withLinkScheme(event.target.value);
                  if (whole !== event.target.value) form.setValue(media.urlField, whole, { shouldDirty: true });
                  setJudged(true);
                  return field.onBlur(event);
                }}
              />
            </FormField>
            <LinkPreview url={url} />
          </div>
        ) : null}
      </section>
    </div>
  );
}

interface StepProps {
  form: WizardForm;
  musicUploader: FileUploader;
  videoUploader: FileUploader;
  artworkUploader: FileUploader;
}

/** Step 1: the music or the finished video (link or upload), the artwork and the release status. */
export function StepMusicArtwork({ form, musicUploader, videoUploader, artworkUploader }: StepProps) {
  const type = form.watch('submissionType');
  const releaseDateOption = form.watch('releaseDateOption');
  const releaseStatus = form.watch('releaseStatus');
  const dateOptions = releaseDateOptionsFor(releaseStatus);

  return (
    <div className="grid gap-8">
      <section className="grid gap-4" aria-labelledby="type-heading">
        <h2 id="type-heading" className="text-base font-semibold">
          What are you sending?
        </h2>
        <WizardChoiceCards
          form={form}
          field="submissionType"
          name="type"
          label="Submission type"
          choices={[
            { value: 'track', label: SUBMISSION_TYPE_LABELS.track, description: 'The label makes the video for your song', icon: <Music className="size-4 text-primary-soft" aria-hidden /> },
            { value: 'video', label: SUBMISSION_TYPE_LABELS.video, description: 'Your own video, published on the channel as it is', icon: <Clapperboard className="size-4 text-primary-soft" aria-hidden /> },
          ]}
        />
      </section>

      {/* Hidden rather than unmounted: an upload in progress survives a look at the other path. */}
      <MediaSource form={form} media={MEDIA.video} uploader={videoUploader} hidden={type !== 'video'} />
      <MediaSource form={form} media={MEDIA.music} uploader={musicUploader} hidden={type === 'video'} />

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
        <WizardChoiceCards
          form={form}
          field="releaseStatus"
          name="release-status"
          label="Release status"
          choices={[
            { value: 'released', label: 'Released', description: 'The track is already out' },
            { value: 'unreleased', label: 'Unreleased', description: 'The track has not been released yet' },
          ]}
        />
        {dateOptions.length > 1 ? (
          <>
            <p className="text-sm font-medium">Release date</p>
            <WizardChoiceCards
              form={form}
              field="releaseDateOption"
              name="release-date-option"
              label="Release date"
              className="sm:grid-cols-3"
              choices={dateOptions.map((value) => ({ value, label: RELEASE_DATE_OPTION_LABELS[value] }))}
            />
          </>
        ) : null}
        {/* A released track has only its date to give, and may leave it out. */}
        {releaseStatus === 'released' ? (
          <FormField id="release-date" label="Released on (optional)" className="max-w-xs">
            <Input type="date" {...form.register('releaseDate')} />
          </FormField>
        ) : releaseDateOption === 'specific' ? (
          <FormField
            id="release-date"
            label="Release date"
            className="max-w-xs"
            hint={missingReleaseDate({ releaseStatus, releaseDateOption, releaseDate: form.watch('releaseDate') }) ? SUBMISSION_MESSAGES.releaseDate : undefined}
          >
            <Input type="date" {...form.register('releaseDate')} />
          </FormField>
        ) : null}
      </section>
    </div>
  );
}
