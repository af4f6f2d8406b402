import { UserPen, UserRoundPlus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { shouldPromptForProfile } from '@shared/users';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { useDismissProfilePrompt } from './use-profile';
import { PROFILE_PURPOSE } from './profile-texts';

/** The form (and its validation) loads when the dialog first opens, not with the dashboard. */
const ProfileDialog = lazy(() => import('./profile-dialog').then((module) => ({ default: module.ProfileDialog })));

/**
 * Onboarding that never blocks (issue 11): the profile dialog opens by itself once, after
 * registration; closing it without saving is remembered on the server, so it never opens by
 * itself again, on any device. Until the profile is saved a small card invites completion. The
 * label's team has no artist profile and never sees either.
 */
export function useProfileSetup(user: PublicUser) {
  const [open, setOpen] = useState(() => shouldPromptForProfile(user));
  const dismiss = useDismissProfilePrompt();
  const artist = user.role !== 'admin';
  const onOpenChange = (next: boolean) => {
    // Nothing opens the artist dialog for the team, whatever asks.
    setOpen(next && artist);
    if (!next && shouldPromptForProfile(user) && !dismiss.isPending) dismiss.mutate();
  };
  return { open, onOpenChange, artist, cardShown: artist && !user.profileSetupComplete && !open };
}

type ProfileSetup = ReturnType<typeof useProfileSetup>;

/**
 * "Complete profile" opens the first-visit dialog; once the profile is complete, "Edit profile"
 * leads to the account settings screen, the one place where the profile is edited. The team has
 * no artist profile (settings shows none for them), so neither button is theirs.
 */
export function ProfileButton({ user, setup }: { user: PublicUser; setup: ProfileSetup }) {
  if (!setup.artist) return null;
  return (
    <>
      {user.profileSetupComplete ? (
        <Button asChild variant="outline">
          <Link href="/settings#profile">
            <UserPen aria-hidden />
            Edit profile
          </Link>
        </Button>
      ) : (
        <Button variant="outline" onClick={() => setup.onOpenChange(true)}>
          <UserPen aria-hidden />
          Complete profile
        </Button>
      )}
      {setup.open ? (
        <Suspense fallback={null}>
          <ProfileDialog user={user} open={setup.open} onOpenChange={setup.onOpenChange} />
        </Suspense>
      ) : null}
    </>
  );
}

/** A quiet invitation, in place of a dialog that blocks the dashboard. */
export function ProfileCompletionCard({ setup }: { setup: ProfileSetup }) {
  if (!setup.cardShown) return null;
  return (
    <Card data-testid="profile-card" className="flex flex-col gap-3 border-primary/30 bg-primary/5 p-4 sm:flex-row sm:items-center">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary-soft">
        <UserRoundPlus className="size-5" aria-hidden />
      </span>
      <div className="grid flex-1 gap-0.5">
        <p className="font-medium">Complete your artist profile</p>
        <p className="text-sm text-muted-foreground">{PROFILE_PURPOSE}</p>
      </div>
      <Button variant="outline" size="sm" onClick={() => setup.onOpenChange(true)} className="self-start sm:self-center">
        Complete profile
      </Button>
    </Card>
  );
}
