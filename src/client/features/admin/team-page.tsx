import { useMutation, useQuery } from '@tanstack/react-query';
import type { AdminUser, AdminUsersPage } from '@shared/account';
import type { Role } from '@shared/auth';
import { displayName } from '@shared/users';
import { Badge } from '@client/components/ui/badge';
import { PageHeading } from '@client/components/page-heading';
import { SearchField, useSearchAndPage } from '@client/components/search-field';
import { Pager, lastPageOf } from '@client/components/pager';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { apiRequest, errorMessage } from '@client/lib/api';
import { formatLongDate } from '@client/lib/format';
import { queryClient } from '@client/lib/query-client';
import { toast } from '@client/lib/toast';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { ACCOUNT_TEXTS, VERIFY_EMAIL_TEXTS } from '@shared/auth-texts';
import { usePublicConfig } from '@client/lib/public-config';

const TEAM_KEY = '/api/admin/users';

function useTeam(q: string, page: number) {
  return useQuery({
    queryKey: [TEAM_KEY, q, page],
    queryFn: ({ signal }) =>
      apiRequest<AdminUsersPage>('GET', `${TEAM_KEY}?${new URLSearchParams({ q, page: String(page) })}`, undefined, { signal }),
    placeholderData: (previous) => previous,
  });
}

/** POST /api/admin/users/{id}/verify-email: only where no mail server is configured (decision 155). */
function useConfirmEmail() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<AdminUser>('POST', `${TEAM_KEY}/${encodeURIComponent(id)}/verify-email`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [TEAM_KEY] }),
  });
}

function useChangeRole() {
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) => apiRequest<AdminUser>('PATCH', `${TEAM_KEY}/${encodeURIComponent(id)}`, { role }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [TEAM_KEY] }),
  });
}

/** /admin/users: every account, searchable, where an admin promotes or demotes (CONTRACT §11). Drawn inside the team's shell, which lets only an admin reach it (routes/admin-route.tsx). */
export function TeamPage() {
  useDocumentTitle('Users');
  const { q, page, setPage, field } = useSearchAndPage();
  const team = useTeam(q.trim(), page);
  const changeRole = useChangeRole();
  const confirmEmail = useConfirmEmail();
  const noMail = usePublicConfig().data?.mailEnabled === false;
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
    <>
        <PageHeading title="Users" description="Everyone with an account. Admins see the review desk; the last admin cannot be demoted." />
        <SearchField className="max-w-md" label="Search users" placeholder="Search by email or name" {...field} />
        {team.isPending ? (
          <Spinner />
        ) : team.isError ? (
          <p className="text-destructive-soft">{errorMessage(team.error)}</p>
        ) : team.data.users.length === 0 ? (
          <p className="text-muted-foreground">No users match.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Users">
            {team.data.users.map((member) => {
              const lastAdmin = member.role === 'admin' && team.data.adminCount <= 1;
              return (
                <li key={member.id}>
                  <Card>
                    <CardContent className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
                      <div className="grid flex-1 gap-1">
                        <p className="flex flex-wrap items-center gap-2 font-medium">
                          {displayName(member) || 'No name'}
                          {member.role === 'admin' ? <Badge variant="warning">Admin</Badge> : <Badge variant="secondary">Artist</Badge>}
                          {member.emailVerified ? null : <Badge variant="outline">Email not confirmed</Badge>}
                        </p>
                        {noMail && !member.emailVerified && member.email ? (
                          <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                            <span>No mail server is configured, so no confirmation link reaches them.</span>
                            <Button
                              variant="outline"
                              size="sm"
                              disabled={confirmEmail.isPending}
                              aria-label={`Confirm the email address of ${member.email}`}
                              onClick={() =>
                                confirmEmail.mutate(member.id, {
                                  onSuccess: () => toast({ title: VERIFY_EMAIL_TEXTS.confirmedByAdmin, description: member.email ?? undefined }),
                                  onError: (error) => toast({ title: 'Could not confirm the address', description: errorMessage(error), variant: 'destructive' }),
                                })
                              }
                            >
                              Confirm email
                            </Button>
                          </div>
                        ) : null}
                        {/* Only the address may break anywhere (a phone is narrower than a long one); the date and count wrap whole. */}
                        <p className="text-sm text-muted-foreground">
                          <span className="[overflow-wrap:anywhere]">{member.email ?? 'No email'}</span> · joined {formatLongDate(member.createdAt)} ·{' '}
                          {member.submissionCount} submission{member.submissionCount === 1 ? '' : 's'}
                        </p>
                      </div>
                      {member.role === 'admin' ? (
                        <div className="flex flex-col items-start gap-1 sm:items-end">
                          <Button
                            variant="outline"
                            size="sm"
                            // The server refuses to demote the last admin; say so before the click, not in an error toast.
                            disabled={changeRole.isPending || lastAdmin}
                            aria-describedby={lastAdmin ? `last-admin-${member.id}` : undefined}
                            aria-label={`Remove admin rights from ${member.email ?? displayName(member)}`}
                            onClick={() => setRole(member, 'user')}
                          >
                            Remove admin
                          </Button>
                          {lastAdmin ? (
                            <p id={`last-admin-${member.id}`} className="text-xs text-muted-foreground">
                              {ACCOUNT_TEXTS.lastAdmin}
                            </p>
                          ) : null}
                        </div>
                      ) : (
                        <Button
                          variant="outline"
                          size="sm"
                          className="self-start sm:self-center"
                          disabled={changeRole.isPending}
                          aria-label={`Make admin: ${member.email ?? displayName(member)}`}
                          onClick={() => setRole(member, 'admin')}
                        >
                          Make admin
                        </Button>
                      )}
                    </CardContent>
                  </Card>
                </li>
              );
            })}
          </ul>
        )}
        {team.data ? (
          <Pager page={page} lastPage={lastPage} onPage={setPage}>
            {' '}· {team.data.total} users
          </Pager>
        ) : null}
    </>
  );
}
