import { Laptop, LogOut, Smartphone, Tablet } from 'lucide-react';
import type { AccountSession } from '@shared/account';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { formatLongDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useAccountSessions, useEndOtherSessions, useEndSession } from './account-queries';
import { deviceKind, deviceName } from './device-name';

const ICONS = { desktop: Laptop, mobile: Smartphone, tablet: Tablet } as const;

/** Where the account is signed in (CONTRACT §11), with sign-out per session and everywhere else. */
export function SessionsSection() {
  const sessions = useAccountSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  const signOut = (session: AccountSession) =>
    endOne.mutate(session.id, {
      onSuccess: () => {
        if (session.current) window.location.assign('/auth');
        else toast({ title: 'Signed out', description: `${deviceName(session.userAgent)} is signed out.` });
      },
      onError: (error) => toast({ title: 'Could not sign out', description: errorMessage(error), variant: 'destructive' }),
    });

  return (
    <Card id="sessions">
      <CardHeader>
        <CardTitle>Where you're signed in</CardTitle>
        <CardDescription>Sign out a device you don't recognise or no longer use. Changing your password signs out every other device too.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {sessions.isPending ? (
          <Spinner />
        ) : sessions.isError ? (
          <p className="text-sm text-destructive-soft">{errorMessage(sessions.error)}</p>
        ) : (
          <ul className="grid divide-y divide-border rounded-lg border" aria-label="Signed-in sessions">
            {sessions.data.map((session) => {
              const Icon = ICONS[deviceKind(session.userAgent)];
              const name = deviceName(session.userAgent);
              return (
                <li key={session.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="session-row">
                  <Icon className="hidden size-5 shrink-0 text-muted-foreground sm:block" aria-hidden />
                  <div className="grid flex-1 gap-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium">
                      {name}
                      {session.current ? <Badge variant="success">This device</Badge> : null}
                    </p>
                    <p className="text-sm text-muted-foreground">
                      Signed in {formatLongDateTime(session.createdAt)} · last seen {formatLongDateTime(session.lastSeenAt)}
                    </p>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    className="self-start sm:self-center"
                    disabled={endOne.isPending}
                    aria-label={session.current ? 'Sign out this device' : `Sign out ${name}, last seen ${formatLongDateTime(session.lastSeenAt)}`}
                    onClick={() => signOut(session)}
                  >
                    <LogOut aria-hidden />
                    Sign out
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <Button
          variant="outline"
          className="justify-self-start"
          disabled={others === 0 || endOthers.isPending}
          onClick={() =>
            endOthers.mutate(undefined, {
              onSuccess: () => toast({ title: 'Signed out everywhere else', description: 'Only this device is still signed in.' }),
              onError: (error) => toast({ title: 'Could not sign out', description: errorMessage(error), variant: 'destructive' }),
            })
          }
        >
          {endOthers.isPending ? <Spinner /> : null}
          Sign out everywhere else
        </Button>
      </CardContent>
    </Card>
  );
}
