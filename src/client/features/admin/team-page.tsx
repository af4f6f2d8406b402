import { useMutation, useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useState } from 'react';
import type { AdminUser, AdminUsersPage } from '@shared/account';
import type { Role } from '@shared/auth';
import { displayName } from '@shared/users';
import { Badge } from '@client/components/ui/badge';
import { BackLink, PageHeading } from '@client/components/page-heading';
import { Pager, lastPageOf } from '@client/components/pager';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { apiRequest, errorMessage } from '@client/lib/api';
import { useAuth } from '@client/lib/auth';
import { formatLongDate } from '@client/lib/format';
import { queryClient } from '@client/lib/query-client';
import { toast } from '@client/lib/toast';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { AdminHeader } from '@client/components/admin-header';

const TEAM_KEY = '/api/admin/users';

function useTeam(q: string, page: number) {
  return useQuery({
    queryKey: [TEAM_KEY, q, page],
    queryFn: ({ signal }) =>
      apiRequest<AdminUsersPage>('GET', `${TEAM_KEY}?${new URLSearchParams({ q, page: String(page) })}`, undefined, { signal }),
    placeholderData: (previous) => previous,
  });
}

function useChangeRole() {
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) => apiRequest<AdminUser>('PATCH', `${TEAM_KEY}/${encodeURIComponent(id)}`, { role }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [TEAM_KEY] }),
  });
}

/** /admin/users: every account, searchable, where an admin promotes or demotes (CONTRACT §11). */
export function TeamPage() {
  useDocumentTitle('Users');
  const { user } = useAuth();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const team = useTeam(q.trim(), page);
  const changeRole = useChangeRole();
  if (!user) return null;
  if (user.role !== 'admin') {
    return (
      <main className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-2xl font-semibold">Access Denied</h1>
        <p className="mt-2 text-muted-foreground">You don't have admin privileges</p>
      </main>
    );
  }
  const lastPage = lastPageOf(team.data);

  const setRole = (member: AdminUser, role: Role) =>
    changeRole.mutate(
      { id: member.id, role },
      {
        onSuccess: () => toast({ title: role === 'admin' ? 'Made an admin' : 'Admin rights removed', description: member.email ?? displayName(member) }),
        onError: (error) => toast({ title: 'Could not change the role', description: errorMessage(error), variant: 'destructive' }),
      },
    );

  return (
    <div className="min-h-dvh">
      <AdminHeader user={user} />
      <main className="mx-auto grid w-full max-w-5xl gap-6 px-4 py-8 sm:px-6">
        <BackLink href="/admin">Back to Admin</BackLink>
        <PageHeading title="Users" description="Everyone with an account. Admins see the review desk; the last admin cannot be demoted." />
        <div className="relative max-w-md">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            aria-label="Search users"
            placeholder="Search by email or name"
            className="pl-9"
            value={q}
            onChange={(event) => {
              setQ(event.target.value);
              setPage(1);
            }}
          />
        </div>
        {team.isPending ? (
          <Spinner />
        ) : team.isError ? (
          <p className="text-destructive-soft">{errorMessage(team.error)}</p>
        ) : team.data.users.length === 0 ? (
          <p className="text-muted-foreground">No users match.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Users">
            {team.data.users.map((member) => (
              <li key={member.id}>
                <Card>
                  <CardContent className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
                    <div className="grid flex-1 gap-1">
                      <p className="flex flex-wrap items-center gap-2 font-medium">
                        {displayName(member) || 'No name'}
                        {member.role === 'admin' ? <Badge variant="warning">Admin</Badge> : <Badge variant="secondary">Artist</Badge>}
                        {member.emailVerified ? null : <Badge variant="outline">Email not confirmed</Badge>}
                      </p>
                      <p className="text-sm break-all text-muted-foreground">
                        {member.email ?? 'No email'} · joined {formatLongDate(member.createdAt)} · {member.submissionCount} submission
                        {member.submissionCount === 1 ? '' : 's'}
                      </p>
                    </div>
                    {member.role === 'admin' ? (
                      <Button
                        variant="outline"
                        size="sm"
                        className="self-start sm:self-center"
                        disabled={changeRole.isPending}
                        aria-label={`Remove admin rights from ${member.email ?? displayName(member)}`}
                        onClick={() => setRole(member, 'user')}
                      >
                        Remove admin
                      </Button>
                    ) : (
                      <Button
                        variant="outline"
                        size="sm"
                        className="self-start sm:self-center"
                        disabled={changeRole.isPending}
                        aria-label={`Make ${member.email ?? displayName(member)} an admin`}
                        onClick={() => setRole(member, 'admin')}
                      >
                        Make admin
                      </Button>
                    )}
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        )}
        {team.data ? (
          <Pager page={page} lastPage={lastPage} onPage={setPage}>
            {' '}· {team.data.total} users
          </Pager>
        ) : null}
      </main>
    </div>
  );
}
