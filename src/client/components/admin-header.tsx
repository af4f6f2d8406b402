import { Bell, LayoutDashboard, Mail, Menu, MessageSquare, ShieldCheck, Users, MonitorPlay, Webhook, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { AppHeader } from '@client/components/app-header';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { UnreadBadge } from '@client/components/unread-badge';

/**
 * The admin's screens and the way back to the artist's view; the label shows from small tablets up.
 * On a phone Messages (with its count) stays in the bar and the others are in a labelled menu:
 * five icon-only buttons and a bare shield told a new team member nothing (issue 36).
 */
const MESSAGES = { href: '/messages', label: 'Messages', icon: MessageSquare } as const;
const LINKS = [
  MESSAGES,
  { href: '/admin/users', label: 'Users', icon: Users },
  { href: '/admin/outbox', label: 'Outbox', icon: Mail },
  { href: '/admin/channel', label: 'Channel', icon: MonitorPlay },
  { href: '/admin/webhooks', label: 'Webhooks', icon: Webhook },
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
          <span className="sm:hidden">Admin</span>
          <span className="hidden sm:inline">Admin Access</span>
        </Badge>
      }
      actions={
        <>
          {newFromArtists > 0 ? <NewFromArtistsLink count={newFromArtists} /> : null}
          {LINKS.map(({ href, label, icon: Icon }) => (
            <Button key={href} asChild variant="outline" size="sm" className={href === MESSAGES.href ? 'px-1.5 sm:px-3' : 'hidden sm:inline-flex'}>
              {/*
                Named by their own text, so the name holds what shows (axe's label-content-name-mismatch,
                issue 43 item 8): on a phone the word is there for screen readers only, beside the count.
              */}
              <Link href={href}>
                <Icon aria-hidden />
                <span className="sr-only sm:not-sr-only">{label}</span>
                {href === MESSAGES.href ? <UnreadBadge count={unreadMessages} /> : null}
              </Link>
            </Button>
          ))}
          <PhoneMenu />
        </>
      }
    />
  );
}

/** Shown only while there is something new: the desk's rows say which submissions it is about. */
function NewFromArtistsLink({ count }: { count: number }) {
  return (
    <Button asChild variant="outline" size="sm" className="px-1.5 sm:px-3">
      {/*
        Named by its text, "New 3 from artists", which holds what shows ("New 3", or "3" below
        1024 px) as axe's label-content-name-mismatch asks (issue 43 item 8). On a phone the count
        alone shows: the row of icons must still fit 360 px.
      */}
      <Link href="/admin" data-testid="artist-activity-header">
        <Bell aria-hidden className="hidden sm:block" />
        <span className="sr-only lg:not-sr-only">New</span>{' '}
        <span className="ml-0.5 min-w-5 rounded-full bg-warning px-1.5 text-center text-xs leading-5 font-semibold text-background tabular-nums">
          {count > 99 ? '99+' : count}
        </span>
        <span className="sr-only"> from artists</span>
      </Link>
    </Button>
  );
}

/** The team's other screens on a phone: a "Menu" button opening a labelled list under the header. */
function PhoneMenu() {
  const [open, setOpen] = useState(false);
  const [location] = useLocation();
  // A link followed closes it; so does Escape.
  useEffect(() => setOpen(false), [location]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <div className="sm:hidden">
      <Button variant="outline" size="sm" className="px-2" aria-expanded={open} aria-controls={open ? 'admin-phone-menu' : undefined} onClick={() => setOpen((v) => !v)}>
        {open ? <X aria-hidden /> : <Menu aria-hidden />}
        {/* Named everywhere; the word shows from 380 px up, so the bar fits a 360 px phone with both counts. */}
        <span className="sr-only min-[380px]:not-sr-only">Menu</span>
      </Button>
      {open ? (
        <nav id="admin-phone-menu" aria-label="Team screens" className="absolute inset-x-0 top-full border-b bg-background px-4 py-2 shadow-lg">
          <ul className="grid">
            {LINKS.filter((l) => l.href !== MESSAGES.href).map(({ href, label, icon: Icon }) => (
              <li key={href}>
                <Link href={href} className="flex items-center gap-3 rounded-md px-2 py-3 text-sm font-medium hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
                  <Icon className="size-4" aria-hidden />
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}
