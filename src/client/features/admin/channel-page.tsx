import { useMutation, useQuery } from '@tanstack/react-query';
import { MonitorPlay } from 'lucide-react';
import type { ChannelStatus } from '@shared/production';
import { PageHeading } from '@client/components/page-heading';
import { Button } from '@client/components/ui/button';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { MONEY_CONFIRM_TEXTS } from '@shared/billing';
import { useState } from 'react';
import { Card, CardContent } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { apiRequest, errorMessage } from '@client/lib/api';
import { formatLongDate } from '@client/lib/format';
import { queryClient } from '@client/lib/query-client';
import { toast } from '@client/lib/toast';
import { useDocumentTitle } from '@client/lib/use-document-title';

export const CHANNEL_KEY = '/api/admin/channel';

/** What `?error=` after the round trip means. */
const CONNECT_ERRORS: Record<string, string> = {
  failed: 'The channel could not be connected. Try again, and allow every permission Google asks for.',
  denied: 'Google was told not to allow access, so nothing was connected.',
  not_configured: 'No OAuth client is configured: set YOUTUBE_OAUTH_CLIENT_ID and YOUTUBE_OAUTH_CLIENT_SECRET (or the GOOGLE_ ones).',
};

/** /admin/channel: the label's YouTube channel the product publishes on (CONTRACT §16). Drawn inside the team's shell, which lets only an admin reach it (routes/admin-route.tsx). */
export function ChannelPage() {
  useDocumentTitle('YouTube channel');
  const channel = useQuery<ChannelStatus>({ queryKey: [CHANNEL_KEY] });
  const [confirmingDisconnect, setConfirmingDisconnect] = useState(false);
  const disconnect = useMutation({
    mutationFn: () => apiRequest<ChannelStatus>('DELETE', CHANNEL_KEY),
    onSuccess: (status) => {
      setConfirmingDisconnect(false);
      queryClient.setQueryData([CHANNEL_KEY], status);
      toast({ title: 'Channel disconnected' });
    },
    onError: (error) => {
      setConfirmingDisconnect(false);
      toast({ title: 'Could not disconnect', description: errorMessage(error), variant: 'destructive' });
    },
  });
  const error = new URLSearchParams(window.location.search).get('error');
  const status = channel.data;

  return (
    <>
        <PageHeading
          title="YouTube channel"
          description="The label's channel: videos are published on it from the desk, and the 14-day checks read its analytics."
        />
        {error ? (
          <p role="alert" className="rounded-md border border-destructive/40 p-3 text-sm text-destructive-soft">
            {CONNECT_ERRORS[error] ?? CONNECT_ERRORS.failed}
          </p>
        ) : null}
        {channel.isPending ? (
          <Spinner />
        ) : channel.isError ? (
          <p className="text-destructive-soft">{errorMessage(channel.error)}</p>
        ) : (
          <Card>
            <CardContent className="grid gap-4 p-5">
              {status!.connected ? (
                <>
                  <div className="flex items-start gap-3">
                    <MonitorPlay className="mt-1 size-6 shrink-0 text-primary" aria-hidden />
                    <div className="grid gap-1">
                      <p className="text-lg font-semibold [overflow-wrap:anywhere]" data-testid="channel-title">
                        {status!.title}
                      </p>
                      <p className="text-sm text-muted-foreground">
                        <span data-testid="channel-subscribers">
                          {status!.subscriberCount === null ? 'Subscribers hidden' : `${status!.subscriberCount.toLocaleString('en-US')} subscribers`}
                        </span>
                        {status!.connectedAt ? ` · connected ${formatLongDate(status!.connectedAt)}` : null}
                      </p>
                    </div>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <Button asChild variant="outline">
                      <a href="/api/admin/channel/connect">Connect another channel</a>
                    </Button>
                    <Button variant="destructive" disabled={disconnect.isPending} onClick={() => setConfirmingDisconnect(true)}>
                      Disconnect
                    </Button>
                    <ConfirmDialog
                      open={confirmingDisconnect}
                      onOpenChange={setConfirmingDisconnect}
                      onConfirm={() => disconnect.mutate()}
                      pending={disconnect.isPending}
                      destructive
                      title={MONEY_CONFIRM_TEXTS.disconnectTitle}
                      description={MONEY_CONFIRM_TEXTS.disconnectBody}
                      confirmLabel={MONEY_CONFIRM_TEXTS.disconnectConfirm}
                    />
                  </div>
                </>
              ) : (
                <>
                  <p>
                    No channel is connected. Videos are then published by hand and their links recorded on the desk; the 14-day check
                    reads the views with the API key, or asks the team for the figure.
                  </p>
                  <div>
                    {status!.configured ? (
                      <Button asChild>
                        <a href="/api/admin/channel/connect">
                          <MonitorPlay aria-hidden /> Connect the channel
                        </a>
                      </Button>
                    ) : (
                      <p className="text-sm text-muted-foreground">{CONNECT_ERRORS.not_configured}</p>
                    )}
                  </div>
                </>
              )}
            </CardContent>
          </Card>
        )}
    </>
  );
}
