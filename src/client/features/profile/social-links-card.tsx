import { ChevronDown, Share2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { PublicUser } from '@shared/auth';
import { Card, CardContent } from '@client/components/ui/card';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@client/components/ui/collapsible';
import { Spinner } from '@client/components/ui/spinner';
import { cn } from '@client/lib/utils';

/** The form (and react-hook-form with it) loads when the card is first opened, not with the dashboard (issue 16's page budgets). */
const SocialLinksForm = lazy(() => import('./social-links-form').then((module) => ({ default: module.SocialLinksForm })));

/** 'Your Social Media Links': collapsed by default (SPEC §2). */
export function SocialLinksCard({ user }: { user: PublicUser }) {
  const [open, setOpen] = useState(false);
  // The content is mounted from the first opening on, not with the dashboard: Radix measures it as
  // it mounts, a forced style and layout of the whole page in the middle of the dashboard's first
  // render (~50 ms of a load on a 2-core machine, decision 206). Mounted closed and opened a
  // frame later, it opens with its animation the first time too.
  const [mounted, setMounted] = useState(false);
  const onOpenChange = (next: boolean) => {
    if (next && !mounted) {
      setMounted(true);
      requestAnimationFrame(() => setOpen(true));
    } else setOpen(next);
  };

  return (
    <Card>
      <Collapsible open={open} onOpenChange={onOpenChange}>
        {/* The heading holds the toggle, not the other way round: a button may only hold phrasing content. */}
        <h3 className="text-base">
          <CollapsibleTrigger className="flex w-full cursor-pointer items-center gap-4 rounded-xl p-5 text-left outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-6">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary-soft">
              <Share2 className="size-5" aria-hidden />
            </span>
            <span className="grid flex-1 gap-1">
              <span className="text-base font-semibold leading-tight tracking-tight">Your Social Media Links</span>
              <span className="text-sm font-normal text-muted-foreground">We add them to the description of your video on our channel.</span>
            </span>
            <ChevronDown className={cn('size-5 shrink-0 text-muted-foreground transition-transform', open && 'rotate-180')} aria-hidden />
          </CollapsibleTrigger>
        </h3>
        {mounted && (
          <CollapsibleContent>
            <CardContent>
              <Suspense fallback={<Spinner />}>
                <SocialLinksForm user={user} />
              </Suspense>
            </CardContent>
          </CollapsibleContent>
        )}
      </Collapsible>
    </Card>
  );
}
