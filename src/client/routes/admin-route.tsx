import type { ReactNode } from 'react';
import type { PublicUser } from '@shared/auth';
import { AccessDenied } from '@client/components/access-denied';
import { AdminHeader } from '@client/components/admin-header';
import { BackLink } from '@client/components/page-heading';
import { useUnseenActivity } from '@client/entities/submission/artist-activity-queries';
import { useUnreadMessageCount } from '@client/entities/message/message-queries';
import { useAuth } from '@client/lib/auth';
import { cn } from '@client/lib/utils';

/**
 * The one shell of the team's pages below /admin (Users, Outbox, YouTube channel), put around
 * them where they are routed: its access guard (an artist sees SPEC §2's Access Denied, and the
 * page, with its queries and even its code, is never loaded for them), the team's header, and
 * the way back to the desk.
 */
export function AdminRoute({ width = 'max-w-5xl', children }: { width?: string; children: ReactNode }) {
  const { user } = useAuth();
  if (!user) return null;
  if (user.role !== 'admin') return <AccessDenied />;
  return (
    <AdminFrame user={user} width={width}>
      {children}
    </AdminFrame>
  );
}

function AdminFrame({ user, width, children }: { user: PublicUser; width: string; children: ReactNode }) {
  const unread = useUnreadMessageCount();
  const newFromArtists = useUnseenActivity().total;
  return (
    <div className="min-h-dvh">
      <AdminHeader user={user} unreadMessages={unread} newFromArtists={newFromArtists} />
      <main className={cn('mx-auto grid w-full gap-6 px-4 py-8 sm:px-6', width)}>
        <BackLink href="/admin">Back to Admin</BackLink>
        {children}
      </main>
    </div>
  );
}
