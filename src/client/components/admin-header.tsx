import { Bell, LayoutDashboard, Mail, MessageSquare, ShieldCheck, Users, MonitorPlay } from 'lucide-react';
import { Link } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { AppHeader } from '@client/components/app-header';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { UnreadBadge } from '@client/components/unread-badge';

/**
 * The admin's screens and the way back to the artist's view; the label shows from small tablets up.
 * On a phone they are icons with a narrow padding, so they, Logout and the badge fit 360 px.
 */
const LINKS = [
  { href: '/messages', label: 'Messages', icon: MessageSquare },
  { href: '/admin/users', label: 'Users', icon: Users },
  { href: '/admin/outbox', label: 'Outbox', icon: Mail },
  { href: '/admin/channel', label: 'Channel', icon: MonitorPlay },
  { href: '/', label: 'User View', icon: LayoutDashboard },
] as const;

/**
 * SPEC §2 admin nav bar: 'Admin Access' badge, 'User View' (to /), the admin's avatar and name, Logout;
 * and Messages with the unread count (issue 23: the team could not find its messages). The counts
 * come from the page, as components sit below the entities that read them. `newFromArtists`: what
 * the artists did that this admin has not seen yet (issue 33 part 4), a link to the desk's rows.
 */
export function AdminHeader({ user, unreadMessages, newFromArtists = 0 }: { user: PublicUser; unreadMessages: number; newFromArtists?: number }) {
  return (
    <AppHeader
      user={user}
      home="/admin"
      className="max-w-7xl"
      nameOnPhones={false}
      badge={
        <Badge variant="warning" className="shrink-0" data-testid="admin-access-badge">
          <ShieldCheck aria-hidden />
          <span className="sr-only sm:not-sr-only">Admin Access</span>
        </Badge>
      }
      actions={
        <>
          {newFromArtists > 0 ? <NewFromArtistsLink count={newFromArtists} /> : null}
          {LINKS.map(({ href, label, icon: Icon }) => (
            <Button key={href} asChild variant="outline" size="sm" className="px-1.5 sm:px-3">
              <Link href={href} aria-label={href === '/messages' && unreadMessages > 0 ? `${label}, unread: ${unreadMessages}` : label}>
                <Icon aria-hidden />
                <span className="hidden sm:inline">{label}</span>
                {href === '/messages' ? <UnreadBadge count={unreadMessages} /> : null}
              </Link>
            </Button>
          ))}
        </>
      }
    />
  );
}

/** Shown only while there is something new: the desk's rows say which submissions it is about. */
function NewFromArtistsLink({ count }: { count: number }) {
  return (
    <Button asChild variant="outline" size="sm" className="px-1.5 sm:px-3">
      <Link href="/admin" aria-label={`New from artists: ${count}`} data-testid="artist-activity-header">
        {/* On a phone the count alone: the row of icons must still fit 360 px. */}
        <Bell aria-hidden className="hidden sm:block" />
        <span className="hidden lg:inline">New</span>
        <span className="ml-0.5 min-w-5 rounded-full bg-warning px-1.5 text-center text-xs leading-5 font-semibold text-background tabular-nums">
          {count > 99 ? '99+' : count}
        </span>
      </Link>
    </Button>
  );
}
