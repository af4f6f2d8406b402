import { AudioLines, LayoutDashboard, LogOut, ShieldCheck } from 'lucide-react';
import { Link } from 'wouter';
import { displayName, type PublicUser } from '@shared/auth';
import { UserAvatar } from '@client/components/user-avatar';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { useLogout } from '@client/lib/auth';
import { PRODUCT_NAME } from '@client/lib/brand';

/** SPEC §2 admin nav bar: 'Admin Access' badge, 'User View' (to /), the admin's avatar and name, Logout. */
export function AdminHeader({ user }: { user: PublicUser }) {
  const logout = useLogout();
  const name = displayName(user) || user.email || 'Admin';
  return (
    <header className="sticky top-0 z-30 border-b border-border/80 bg-background/85 backdrop-blur-md">
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-2 px-4 sm:gap-3 sm:px-6 lg:px-8">
        <Link href="/admin" className="flex shrink-0 items-center gap-2.5 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <span className="flex size-9 items-center justify-center rounded-lg bg-primary/20 text-primary-soft ring-1 ring-primary/30">
            <AudioLines className="size-5" aria-hidden />
          </span>
          <span className="hidden text-base font-semibold tracking-tight lg:inline">{PRODUCT_NAME}</span>
        </Link>
        <Badge variant="warning" className="shrink-0" data-testid="admin-access-badge">
          <ShieldCheck aria-hidden />
          Admin Access
        </Badge>
        <nav aria-label="Account" className="ml-auto flex min-w-0 items-center gap-1 sm:gap-2">
          <Button asChild variant="outline" size="sm">
            <Link href="/" aria-label="User View">
              <LayoutDashboard aria-hidden />
              <span className="hidden sm:inline">User View</span>
            </Link>
          </Button>
          <div className="flex min-w-0 items-center gap-2 pl-1 sm:pl-2">
            <UserAvatar imageUrl={user.profileImageUrl} name={name} />
            <span data-testid="header-user-name" className="hidden max-w-[10rem] truncate text-sm font-medium sm:inline lg:max-w-[14rem]">
              {name}
            </span>
          </div>
          <Button variant="ghost" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending} aria-label="Logout">
            {logout.isPending ? <Spinner /> : <LogOut aria-hidden />}
            <span className="hidden md:inline">Logout</span>
          </Button>
        </nav>
      </div>
    </header>
  );
}
