import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { profileSchema, type PublicUser } from '@shared/auth';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { SocialFieldInputs, socialValuesOf } from './social-fields';
import { useSaveProfile } from './use-profile';

interface ProfileDialogProps {
  user: PublicUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The artist profile (SPEC §5 "Profile setup"), opened by its button, by the completion card, or
 * once by itself after registration (see `useProfilePrompt`).
 */
export function ProfileDialog({ user, open, onOpenChange: setOpen }: ProfileDialogProps) {
  const setupNeeded = !user.profileSetupComplete;
  const save = useSaveProfile();
  const form = useForm({
    resolver: zodResolver(profileSchema),
    values: { ...socialValuesOf(user), artistName: user.artistName ?? '', country: user.country ?? '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Profile saved', description: 'Your artist profile is up to date.' });
        setOpen(false);
      },
      onError: (error) => toast({ title: 'Error saving profile', description: errorMessage(error), variant: 'destructive' }),
    }),
  );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{setupNeeded ? 'Complete your artist profile' : 'Edit your artist profile'}</DialogTitle>
          <DialogDescription>Your artist name goes in the title of your videos; your links go in their description.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="grid gap-5">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="profile-artist-name" label="Artist name" error={errors.artistName?.message}>
              <Input autoComplete="off" maxLength={200} aria-required {...form.register('artistName')} />
            </FormField>
            <FormField id="profile-country" label="Country">
              <Input autoComplete="country-name" maxLength={500} {...form.register('country')} />
            </FormField>
          </div>
          <SocialFieldInputs register={form.register} idPrefix="profile" />
          <DialogFooter>
            {setupNeeded ? (
              <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
                Later
              </Button>
            ) : null}
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
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
