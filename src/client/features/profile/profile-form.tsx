import type { ReactNode } from 'react';
import type { PublicUser } from '@shared/auth';
import { ARTIST_NAME_MAX } from '@shared/profile-fields';
import { Button } from '@client/components/ui/button';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { lazySchema, useSchemaForm } from '@client/lib/schema-form';
import { toast } from '@client/lib/toast';
import { SocialFieldInputs, socialValuesOf, type SocialValues } from './social-fields';
import { useSaveProfile } from './use-profile';

/**
 * The profile schema arrives when the form is first typed in or checked, not with the dialog that
 * a new artist's first /dashboard opens at once (issue 27, decision 163). Not on focus: the dialog
 * puts the focus in the form by itself, which would fetch zod on every first dashboard. The form
 * state is lib/schema-form's, not react-hook-form's, for the same reason (issue 37, decision 181).
 */
const schema = lazySchema(() => import('@shared/auth').then((module) => module.profileSchema));

type ProfileValues = SocialValues & { artistName: string; country: string };

interface ProfileFormProps {
  user: PublicUser;
  idPrefix: string;
  onSaved?: () => void;
  /** Buttons shown before "Save profile" (the dialog's "Later"). */
  extraActions?: ReactNode;
  actionsClassName?: string;
}

/**
 * The artist profile and social links (SPEC §5 "Profile setup", CONTRACT §3): the one editor of
 * them, on the account settings screen and in the first-visit profile dialog alike.
 */
export function ProfileForm({ user, ...props }: ProfileFormProps) {
  // Here, not in the fields: the fields start anew with a new profile, the save's callbacks must not.
  const save = useSaveProfile();
  const values = { ...socialValuesOf(user), artistName: user.artistName ?? '', country: user.country ?? '' };
  // The form starts again from the saved profile whenever that changes (a save, another tab's),
  // as react-hook-form's `values` did.
  return <ProfileFields key={JSON.stringify(values)} values={values} save={save} {...props} />;
}

function ProfileFields({
  values,
  save,
  idPrefix,
  onSaved,
  extraActions,
  actionsClassName,
}: Omit<ProfileFormProps, 'user'> & { values: ProfileValues; save: ReturnType<typeof useSaveProfile> }) {
  const form = useSchemaForm(schema, values);
  const { errors } = form;

  const onSubmit = form.handleSubmit((input) =>
    save.mutate(input, {
      onSuccess: () => {
        toast({ title: 'Profile saved', description: 'Your artist profile is up to date.' });
        onSaved?.();
      },
      onError: (error) => toast({ title: 'Error saving profile', description: errorMessage(error), variant: 'destructive' }),
    }),
  );

  return (
    <form noValidate onSubmit={onSubmit} onChange={schema.preload} className="grid gap-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id={`${idPrefix}-artist-name`}
          label={
            <>
              Artist name{' '}
              <span className="text-destructive-soft" aria-hidden>
                *
              </span>
            </>
          }
          error={errors.artistName?.message}
        >
          <Input autoComplete="off" maxLength={ARTIST_NAME_MAX} aria-required {...form.register('artistName')} />
        </FormField>
        <FormField id={`${idPrefix}-country`} label="Country">
          <Input autoComplete="country-name" maxLength={500} {...form.register('country')} />
        </FormField>
      </div>
      <SocialFieldInputs register={form.register} idPrefix={idPrefix} />
      <div className={actionsClassName ?? 'flex flex-wrap gap-2'}>
        {extraActions}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? (
            <>
              <Spinner className="text-primary-foreground" />
              Saving...
            </>
          ) : (
            'Save profile'
          )}
        </Button>
      </div>
    </form>
  );
}
