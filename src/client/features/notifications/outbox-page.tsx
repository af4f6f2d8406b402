import { PageHeading } from '@client/components/page-heading';
import { SearchField, useSearchAndPage } from '@client/components/search-field';
import { Pager, lastPageOf } from '@client/components/pager';
import { useState } from 'react';
import { useDebounced } from '@client/lib/use-debounced';
import { OUTBOX_STATUSES, OUTBOX_STATUS_LABELS, type OutboxStatus } from '@shared/notifications';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { errorMessage } from '@client/lib/api';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useOutbox } from './notification-queries';

const FILTERS = ['all', ...OUTBOX_STATUSES] as const;

/** /admin/outbox: every email the product wrote, newest first, so a new install shows what it would send. Drawn inside the team's shell, which lets only an admin reach it (routes/admin-route.tsx). */
export function OutboxPage() {
  useDocumentTitle('Outbox');
  const [status, setStatus] = useState<OutboxStatus | 'all'>('all');
  const { q, page, setPage, field } = useSearchAndPage();
  // The list follows the search once typing pauses, not at every letter.
  const search = useDebounced(q.trim(), 300);
  const outbox = useOutbox(status, search, page);
  const lastPage = lastPageOf(outbox.data);

  return (
    <>
        <PageHeading
          title="Outbox"
          description={
            outbox.data?.smtpConfigured === false
              ? 'No SMTP server is configured (SMTP_URL): emails are kept here and not sent.'
              : 'Every email the product sends, newest first.'
          }
        />
        <SearchField className="max-w-md" label="Search emails" placeholder="Search by recipient or subject" {...field} />
        <div className="flex flex-wrap gap-2" role="group" aria-label="Filter by status">
          {FILTERS.map((f) => (
            <Button
              key={f}
              size="sm"
              variant={status === f ? 'default' : 'outline'}
              aria-pressed={status === f}
              onClick={() => {
                setStatus(f);
                setPage(1);
              }}
            >
              {f === 'all' ? 'All' : OUTBOX_STATUS_LABELS[f]}
            </Button>
          ))}
        </div>
        {outbox.isPending ? (
          <Spinner />
        ) : outbox.isError ? (
          <p className="text-destructive">{errorMessage(outbox.error)}</p>
        ) : outbox.data.emails.length === 0 ? (
          <p className="text-muted-foreground">{search || status !== 'all' ? 'No emails match.' : 'No emails yet.'}</p>
        ) : (
          <ul className="grid gap-3" aria-label="Emails">
            {outbox.data.emails.map((email) => (
              <li key={email.id}>
                <Card>
                  <CardContent className="grid gap-2 p-4">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <p className="font-medium break-words">{email.subject}</p>
                      <Badge variant={email.status === 'failed' ? 'destructive' : 'secondary'}>{OUTBOX_STATUS_LABELS[email.status]}</Badge>
                    </div>
                    <p className="text-sm text-muted-foreground">
                      {/* The time never breaks inside ("5:04:30 P / M" on a phone); the address may. */}
                      To <span className="[overflow-wrap:anywhere]">{email.toAddress}</span> ·{' '}
                      <span className="whitespace-nowrap" data-testid="outbox-time">
                        {new Date(email.createdAt).toLocaleString()}
                      </span>
                      {email.attempts > 1 ? ` · ${email.attempts} attempts` : ''}
                    </p>
                    {email.lastError ? <p className="text-sm text-muted-foreground">{email.lastError}</p> : null}
                    {email.textBody ? (
                      <details>
                        <summary className="cursor-pointer text-sm">Show the email</summary>
                        <pre className="mt-2 max-h-96 overflow-auto rounded bg-muted p-3 text-xs whitespace-pre-wrap">{email.textBody}</pre>
                      </details>
                    ) : null}
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} lastPage={lastPage} onPage={setPage}>
          {outbox.data ? ` · ${outbox.data.total} emails` : null}
        </Pager>
    </>
  );
}
