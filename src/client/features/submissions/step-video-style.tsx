import { Palette, Sparkles } from 'lucide-react';
import { FILE_FORMATS, FILE_LIMITS, SUBMISSION_TEXT_MAX, formatBytes } from '@shared/submissions';
import { FormField } from '@client/components/ui/form-field';
import { Textarea } from '@client/components/ui/textarea';
import { WizardChoiceCards } from './choice-cards';
import { UploadWidget } from './upload-widget';
import type { FileUploader } from './use-file-uploader';
import type { WizardForm } from './wizard-form';

interface StepProps {
  form: WizardForm;
  styleUploader: FileUploader;
  characterUploader: FileUploader;
}

/** Step 3: custom or non-custom video; custom adds references and creative direction (SPEC §2, §5). */
export function StepVideoStyle({ form, styleUploader, characterUploader }: StepProps) {
  const custom = form.watch('videoStyle') === 'custom';
  return (
    <div className="grid gap-6">
      <WizardChoiceCards
        form={form}
        field="videoStyle"
        name="video-style"
        label="Video style"
        choices={[
          { value: 'non-custom', label: 'Non-custom', description: 'Our team chooses the visual style that fits your song.', icon: <Sparkles className="size-4 text-primary-soft" aria-hidden /> },
          { value: 'custom', label: 'Custom', description: 'Guide the look with reference images, characters and your direction.', icon: <Palette className="size-4 text-primary-soft" aria-hidden /> },
        ]}
      />
      <div hidden={!custom} className="grid gap-6">
        <UploadWidget uploader={styleUploader} label="Style reference images" hint={`${FILE_FORMATS.image} · up to ${FILE_LIMITS.maxStyleImages} images · max ${formatBytes(FILE_LIMITS.imageBytes)} each`} />
        <UploadWidget
          uploader={characterUploader}
          label="Character images"
          hint={`Up to ${FILE_LIMITS.maxCharacterImages} images of at most ${FILE_LIMITS.maxCharacters} different characters · max ${formatBytes(FILE_LIMITS.imageBytes)} each`}
        />
        <FormField id="creative-direction" label="Creative direction" hint="Scenes, colours, story, references: anything that helps us see your video.">
          <Textarea rows={5} maxLength={SUBMISSION_TEXT_MAX.creativeDirection} {...form.register('creativeDirection')} />
        </FormField>
      </div>
    </div>
  );
}
