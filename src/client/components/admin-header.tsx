import { LayoutDashboard, Mail, MessageSquare, ShieldCheck, Users, MonitorPlay } from 'lucide-react';
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
 * and Messages with the unread count (issue 23: the team could not find its messages). The count
 * comes from the page, as components sit below the message entity that reads it.
 */
export function AdminHeader({ user, unreadMessages }: { user: PublicUser; unreadMessages: number }) {
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
