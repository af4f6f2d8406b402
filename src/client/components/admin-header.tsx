import { LayoutDashboard, Mail, ShieldCheck, Users } from 'lucide-react';
import { Link } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { AppHeader } from '@client/components/app-header';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';

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
          <Button asChild variant="outline" size="sm" className="px-2 sm:px-3">
            <Link href="/admin/users" aria-label="Users">
              <Users aria-hidden />
              <span className="hidden sm:inline">Users</span>
            </Link>
          </Button>
          <Button asChild variant="outline" size="sm" className="px-2 sm:px-3">
            <Link href="/admin/outbox" aria-label="Outbox">
              <Mail aria-hidden />
              <span className="hidden sm:inline">Outbox</span>
            </Link>
          </Button>
          <Button asChild variant="outline" size="sm" className="px-2 sm:px-3">
            <Link href="/" aria-label="User View">
              <LayoutDashboard aria-hidden />
              <span className="hidden sm:inline">User View</span>
            </Link>
          </Button>
        </>
      }
    />
  );
}
