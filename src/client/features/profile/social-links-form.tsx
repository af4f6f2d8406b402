import { useForm } from 'react-hook-form';
import type { PublicUser } from '@shared/auth';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { toast } from '@client/lib/toast';
import { SocialFieldInputs, socialValuesOf, type SocialValues } from './social-fields';
import { useSaveSocialLinks } from './use-profile';

/** The form inside 'Your Social Media Links', saved with PUT /api/profile/social-links (SPEC §2, §7). */
export function SocialLinksForm({ user }: { user: PublicUser }) {
  const save = useSaveSocialLinks();
  const form = useForm<SocialValues>({ values: socialValuesOf(user) });

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () =>
        toast({
          title: 'Social links updated',
          description: "Your social media links have been saved and will be included in the video description on our channel.",
        }),
      onError: () =>
        toast({ title: 'Error updating social links', description: 'Failed to save your social media links. Please try again.', variant: 'destructive' }),
    }),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5">
      <SocialFieldInputs register={form.register} idPrefix="social" />
      <Button type="submit" className="justify-self-start" disabled={save.isPending}>
        {save.isPending ? (
          <>
            <Spinner className="text-primary-foreground" />
            Saving...
          </>
        ) : (
          'Save Social Links'
        )}
      </Button>
    </form>
  );
}
