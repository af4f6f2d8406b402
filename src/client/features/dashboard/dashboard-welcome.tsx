import { MessageSquare, Plus } from 'lucide-react';
import { Link } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { Button } from '@client/components/ui/button';
import { ProfileDialog } from '@client/features/profile/profile-dialog';
import { useUnreadMessageCount } from '@client/features/messages/use-unread-message-count';

/** SPEC §2: greeting by artist name, else first name, else "Artist". */
function greetingName(user: PublicUser): string {
  return user.artistName?.trim() || user.firstName?.trim() || 'Artist';
}

export function DashboardWelcome({ user }: { user: PublicUser }) {
  const unread = useUnreadMessageCount();
  return (
    <section className="flex flex-col gap-5 md:flex-row md:items-end md:justify-between">
      <div className="grid min-w-0 gap-1">
        <h1 className="text-2xl font-semibold tracking-tight break-words sm:text-3xl">Welcome back, {greetingName(user)}!</h1>
        <p className="text-muted-foreground">Ready to submit your next hit?</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button asChild>
          <Link href="/submit">
            <Plus aria-hidden />
            Submit New Track
          </Link>
        </Button>
        <Button asChild variant="outline" className="relative">
          <Link href="/messages">
            <MessageSquare aria-hidden />
            Messages
            {unread > 0 ? (
              <span data-testid="unread-badge" className="ml-0.5 min-w-5 rounded-full bg-primary px-1.5 text-center text-xs leading-5 font-semibold text-primary-foreground tabular-nums">
                <span className="sr-only">, unread: </span>
                {unread > 99 ? '99+' : unread}
              </span>
            ) : null}
          </Link>
        </Button>
        <ProfileDialog user={user} />
      </div>
    </section>
  );
}
