import { Settings, Shield } from 'lucide-react';
import { Link } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { AppHeader } from '@client/components/app-header';
import { Button } from '@client/components/ui/button';
import { HowItWorksDialog } from './how-it-works-dialog';

/** SPEC §2 dashboard header: How it Works, the Admin Panel button for admins only, the user, Logout. */
export function DashboardHeader({ user }: { user: PublicUser }) {
  return (
    <AppHeader
      user={user}
      home="/dashboard"
      className="max-w-6xl"
      actions={
        <>
          <HowItWorksDialog />
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
