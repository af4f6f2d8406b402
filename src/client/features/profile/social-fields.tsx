import type { ComponentProps } from 'react';
import type { PublicUser } from '@shared/auth';
import { SOCIAL_FIELDS, type SocialField } from '@shared/profile-fields';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';

/** Labels and SPEC §5's placeholders of the twelve social fields. */
const SOCIAL_FIELD_META: Record<SocialField, { label: string; placeholder: string }> = {
  instagramHandle: { label: 'Instagram', placeholder: '@username' },
  tiktokHandle: { label: 'TikTok', placeholder: '@username' },
  twitterHandle: { label: 'X (Twitter)', placeholder: '@username' },
  facebookHandle: { label: 'Facebook', placeholder: 'username or page name' },
  youtubeHandle: { label: 'YouTube', placeholder: 'channel name or @handle' },
  spotifyHandle: { label: 'Spotify', placeholder: 'artist profile URL or name' },
  soundcloudHandle: { label: 'SoundCloud', placeholder: 'profile URL or username' },
  applemusicHandle: { label: 'Apple Music', placeholder: 'artist profile URL or name' },
  amazonmusicHandle: { label: 'Amazon Music', placeholder: 'artist profile URL or name' },
  deezerHandle: { label: 'Deezer', placeholder: 'artist profile URL or name' },
  bandcampHandle: { label: 'Bandcamp', placeholder: 'artist profile URL or name' },
  otherPlatforms: { label: 'Other platforms', placeholder: 'Beatport, Pandora, etc.' },
};

export type SocialValues = Record<SocialField, string>;

export function socialValuesOf(user: PublicUser): SocialValues {
  return Object.fromEntries(SOCIAL_FIELDS.map((field) => [field, user[field] ?? ''])) as SocialValues;
}

/**
 * The twelve inputs, two per row on wider screens. `register` is the form's (react-hook-form's or
 * lib/schema-form's): the props that bind an input to a field. `idPrefix` keeps ids unique when
 * two forms are on one page.
 */
export function SocialFieldInputs({ register, idPrefix }: { register: (field: SocialField) => ComponentProps<'input'>; idPrefix: string }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {SOCIAL_FIELDS.map((field) => (
        <FormField key={field} id={`${idPrefix}-${field}`} label={SOCIAL_FIELD_META[field].label} className={field === 'otherPlatforms' ? 'sm:col-span-2' : undefined}>
          <Input placeholder={SOCIAL_FIELD_META[field].placeholder} autoComplete="off" maxLength={500} {...register(field)} />
        </FormField>
      ))}
    </div>
  );
}
