import type { ReactNode } from 'react';
import { AudioLines, LogOut } from 'lucide-react';
import { Link } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { displayName } from '@shared/users';
import { UserAvatar } from '@client/components/user-avatar';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { useLogout } from '@client/lib/auth';
import { PRODUCT_NAME } from '@shared/brand';
import { cn } from '@client/lib/utils';

interface AppHeaderProps {
  user: PublicUser;
  /** Where the logo leads. */
  home: string;
  /** Beside the logo (the admin's 'Admin Access' badge). */
  badge?: ReactNode;
  /** Buttons before the user's avatar and name. */
  actions?: ReactNode;
  /** The admin desk shows the avatar and name from the small-tablet width up; the dashboard always does. */
  nameOnPhones?: boolean;
  className?: string;
}

/** The signed-in header of SPEC §2: logo, page actions, the user's avatar and name, Logout. */
export function AppHeader({ user, home, badge, actions, nameOnPhones = true, className }: AppHeaderProps) {
  const logout = useLogout();
  const name = displayName(user) || user.email || '';
  return (
    <header className="sticky top-0 z-30 border-b border-border/80 bg-background/85 backdrop-blur-md">
      <div className={cn('mx-auto flex h-16 w-full items-center gap-2 px-4 sm:gap-3 sm:px-6 lg:px-8', className)}>
        <Link href={home} className="flex shrink-0 items-center gap-2.5 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <span className="flex size-9 items-center justify-center rounded-lg bg-primary/20 text-primary-soft ring-1 ring-primary/30">
            <AudioLines className="size-5" aria-hidden />
          </span>
          {/* Hidden from sight on narrow screens, never from screen readers: it is the link's only name. */}
          <span className={cn('sr-only text-base font-semibold tracking-tight', badge ? 'lg:not-sr-only' : 'sm:not-sr-only')}>{PRODUCT_NAME}</span>
        </Link>
        {badge}
        <nav aria-label="Account" className="ml-auto flex min-w-0 items-center gap-1 sm:gap-2">
          {actions}
          {/* The team's header carries four links; on a phone the avatar gives way so Logout stays on screen. */}
          <div className={cn('min-w-0 items-center gap-2 pl-1 sm:pl-2', nameOnPhones ? 'flex' : 'hidden sm:flex')}>
            <UserAvatar imageUrl={user.profileImageUrl} name={name} />
            <span
              data-testid="header-user-name"
              className={cn(
                'truncate text-sm font-medium',
                nameOnPhones ? 'max-w-[8rem] sm:max-w-[14rem]' : 'hidden max-w-[10rem] sm:inline lg:max-w-[14rem]',
              )}
            >
              {name}
            </span>
          </div>
          {/* Busy after success too, while the browser loads /auth. */}
          <Button variant="ghost" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending || logout.isSuccess} aria-label="Logout">
            {logout.isPending || logout.isSuccess ? <Spinner /> : <LogOut aria-hidden />}
            <span className="hidden md:inline">Logout</span>
          </Button>
        </nav>
      </div>
    </header>
  );
}
