import { LayoutDashboard, Mail, ShieldCheck, Users } from 'lucide-react';
import { Link } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { AppHeader } from '@client/components/app-header';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';

/** The admin's screens and the way back to the artist's view; the label shows from small tablets up. */
const LINKS = [
  { href: '/admin/users', label: 'Users', icon: Users },
  { href: '/admin/outbox', label: 'Outbox', icon: Mail },
  { href: '/', label: 'User View', icon: LayoutDashboard },
] as const;

/** SPEC §2 admin nav bar: 'Admin Access' badge, 'User View' (to /), the admin's avatar and name, Logout. */
export function AdminHeader({ user }: { user: PublicUser }) {
  return (
    <AppHeader
      user={user}
      home="/admin"
      className="max-w-7xl"
      nameOnPhones={false}
      badge={
        <Badge variant="warning" className="shrink-0" data-testid="admin-access-badge">
          <ShieldCheck aria-hidden />
          Admin Access
        </Badge>
      }
      actions={
        <>
          {LINKS.map(({ href, label, icon: Icon }) => (
            <Button key={href} asChild variant="outline" size="sm" className="px-2 sm:px-3">
              <Link href={href} aria-label={label}>
                <Icon aria-hidden />
                <span className="hidden sm:inline">{label}</span>
              </Link>
            </Button>
          ))}
        </>
      }
    />
  );
}
