import { ChevronDown, Share2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { PublicUser } from '@shared/auth';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardTitle } from '@client/components/ui/card';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@client/components/ui/collapsible';
import { Spinner } from '@client/components/ui/spinner';
import { toast } from '@client/lib/toast';
import { cn } from '@client/lib/utils';
import { SocialFieldInputs, socialValuesOf, type SocialValues } from './social-fields';
import { useSaveSocialLinks } from './use-profile';

/** 'Your Social Media Links': collapsed by default, saved with PUT /api/profile/social-links (SPEC §2, §7). */
export function SocialLinksCard({ user }: { user: PublicUser }) {
  const [open, setOpen] = useState(false);
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
    <Card>
      <Collapsible open={open} onOpenChange={setOpen}>
        <CollapsibleTrigger className="flex w-full cursor-pointer items-center gap-4 rounded-xl p-5 text-left outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-6">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary-soft">
            <Share2 className="size-5" aria-hidden />
          </span>
          <span className="grid flex-1 gap-1">
            <CardTitle className="text-base">Your Social Media Links</CardTitle>
            <CardDescription>We add them to the description of your video on our channel.</CardDescription>
          </span>
          <ChevronDown className={cn('size-5 shrink-0 text-muted-foreground transition-transform', open && 'rotate-180')} aria-hidden />
        </CollapsibleTrigger>
        <CollapsibleContent>
          <CardContent>
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
          </CardContent>
        </CollapsibleContent>
      </Collapsible>
    </Card>
  );
}
