import { CircleHelp, Settings, Shield } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { AppHeader } from '@client/components/app-header';
import { registerArtistHeader } from '@client/lib/page-chrome';
import { Button } from '@client/components/ui/button';

/** The dialog (and Radix Dialog with it) loads when it is first opened, not with the dashboard. */
const HowItWorksDialog = lazy(() => import('./how-it-works-dialog').then((module) => ({ default: module.HowItWorksDialog })));

/**
 * SPEC §2 dashboard header, on every page of the artist's side (dashboard, wizard, checkout,
 * messages, settings): How it Works, Settings, the Admin Panel button for admins only, the user,
 * Logout. One component, so no page of the artist's side drops a link the others have (issue 43).
 */
export function ArtistHeader({ user }: { user: PublicUser }) {
  const [howItWorksOpen, setHowItWorksOpen] = useState(false);
  const howItWorksButton = useRef<HTMLButtonElement>(null);
  return (
    <AppHeader
      user={user}
      home="/dashboard"
      className="max-w-6xl"
      actions={
        <>
          <Button
            ref={howItWorksButton}
            variant="ghost"
            size="sm"
            aria-label="How it Works"
            aria-haspopup="dialog"
            aria-expanded={howItWorksOpen}
            onClick={() => setHowItWorksOpen(true)}
          >
            <CircleHelp aria-hidden />
            <span className="hidden md:inline">How it Works</span>
          </Button>
          {howItWorksOpen ? (
            <Suspense fallback={null}>
              <HowItWorksDialog
                onOpenChange={setHowItWorksOpen}
                onCloseAutoFocus={(event) => {
                  event.preventDefault();
                  howItWorksButton.current?.focus();
                }}
              />
            </Suspense>
          ) : null}
          <Button asChild variant="outline" size="sm">
            <Link href="/settings" aria-label="Settings">
              <Settings aria-hidden />
              <span className="hidden md:inline">Settings</span>
            </Link>
          </Button>
          {user.role === 'admin' ? (
            <Button asChild variant="outline" size="sm">
              <Link href="/admin" aria-label="Admin Panel">
                <Shield aria-hidden />
                <span className="hidden md:inline">Admin Panel</span>
              </Link>
            </Button>
          ) : null}
        </>
      }
    />
  );
}

// The error boundary around each page shows it above a page that failed to load (lib/page-chrome.ts).
registerArtistHeader(ArtistHeader);
