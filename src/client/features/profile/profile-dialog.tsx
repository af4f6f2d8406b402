import type { PublicUser } from '@shared/auth';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { ProfileForm } from './profile-form';
import { PROFILE_PURPOSE } from './profile-texts';

interface ProfileDialogProps {
  user: PublicUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The first-visit profile prompt (SPEC §5 "Profile setup"), opened by the completion card or once
 * by itself after registration (see `useProfileSetup`). It holds the same form as the account
 * settings screen, where the profile is edited afterwards.
 */
export function ProfileDialog({ user, open, onOpenChange: setOpen }: ProfileDialogProps) {
  const setupNeeded = !user.profileSetupComplete;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {/* The actions stick to its foot: scroll padding keeps a field scrolled or tabbed to from hiding behind them. */}
      <DialogContent className="max-w-2xl scroll-pb-24">
        <DialogHeader>
          <DialogTitle>{setupNeeded ? 'Complete your artist profile' : 'Edit your artist profile'}</DialogTitle>
          <DialogDescription>{PROFILE_PURPOSE}</DialogDescription>
        </DialogHeader>
        <ProfileForm
          user={user}
          idPrefix="profile"
          onSaved={() => setOpen(false)}
          // Kept in sight at the dialog's foot: on a phone they sat below thirteen fields (issue 36).
          actionsClassName="sticky bottom-0 z-10 -mx-6 -mb-6 flex justify-end gap-2 border-t bg-popover px-6 py-3"
          extraActions={
            setupNeeded ? (
              <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
                Later
              </Button>
            ) : null
          }
        />
      </DialogContent>
    </Dialog>
  );
}
