import { useMutation, useQuery } from '@tanstack/react-query';
import { Copy, Send, Trash2, Webhook } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEXTS,
  type CreatedWebhook,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@shared/webhooks';
import { PageHeading } from '@client/components/page-heading';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { Checkbox } from '@client/components/ui/checkbox';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Spinner } from '@client/components/ui/spinner';
import { apiRequest, errorMessage } from '@client/lib/api';
import { formatLongDateTime } from '@client/lib/format';
import { queryClient } from '@client/lib/query-client';
import { toast } from '@client/lib/toast';
import { useDocumentTitle } from '@client/lib/use-document-title';

const WEBHOOKS_KEY = '/api/admin/webhooks';
const deliveriesKey = (id: string) => `/api/admin/webhooks/${id}/deliveries`;

interface Deliveries {
  attempts: WebhookAttempt[];
  waiting: { eventId: string; type: string; nextAttemptAt: string }[];
}

/** An attempt's outcome in words: the status code, or why none came. */
function outcome(attempt: Pick<WebhookAttempt, 'statusCode' | 'error'>) {
  if (attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300) return { ok: true, text: `${attempt.statusCode} OK` };
  return { ok: false, text: attempt.statusCode !== null ? `${attempt.statusCode} failed` : (attempt.error ?? 'No answer') };
}

function DeliveryList({ endpointId }: { endpointId: string }) {
  const deliveries = useQuery<Deliveries>({ queryKey: [deliveriesKey(endpointId)], refetchInterval: 2000 });
  if (deliveries.isPending) return <Spinner />;
  if (deliveries.isError) return <p className="text-sm text-destructive-soft">{errorMessage(deliveries.error)}</p>;
  const { attempts, waiting } = deliveries.data;
  if (attempts.length === 0 && waiting.length === 0) return <p className="text-sm text-muted-foreground">{WEBHOOK_TEXTS.noDeliveries}</p>;
  return (
    <ul className="grid gap-2" aria-label={`${WEBHOOK_TEXTS.deliveries}`} data-testid="webhook-deliveries">
      {waiting.map((w) => (
        <li key={`w-${w.eventId}`} className="flex flex-wrap items-center gap-2 text-sm">
          <Badge variant="secondary">Queued</Badge>
          <span className="font-medium">{w.type}</span>
          <span className="text-muted-foreground">first attempt {formatLongDateTime(w.nextAttemptAt)}</span>
        </li>
      ))}
      {attempts.map((a) => {
        const o = outcome(a);
        return (
          <li key={a.id} className="grid gap-0.5 rounded-md border border-border/60 p-2 text-sm" data-testid="webhook-attempt">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={o.ok ? 'success' : 'warning'}>{o.text}</Badge>
              <span className="font-medium">{a.type}</span>
              <span className="text-muted-foreground">attempt {a.attempt}</span>
              <span className="text-muted-foreground">· {a.durationMs} ms</span>
            </div>
            <span className="text-xs break-all text-muted-foreground">
              {formatLongDateTime(a.at)} · event {a.eventId}
              {a.deliveryStatus === 'pending' && a.nextAttemptAt ? ` · next attempt ${formatLongDateTime(a.nextAttemptAt)}` : ''}
              {a.deliveryStatus === 'failed' ? ' · given up' : ''}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [removing, setRemoving] = useState(false);
  const ping = useMutation({
    mutationFn: () => apiRequest<{ eventId: string }>('POST', `${WEBHOOKS_KEY}/${endpoint.id}/ping`),
    onSuccess: () => {
      toast({ title: WEBHOOK_TEXTS.pinged });
      void queryClient.invalidateQueries({ queryKey: [deliveriesKey(endpoint.id)] });
    },
    onError: (error) => toast({ title: 'Could not send a ping', description: errorMessage(error), variant: 'destructive' }),
  });
  const remove = useMutation({
    mutationFn: () => apiRequest('DELETE', `${WEBHOOKS_KEY}/${endpoint.id}`),
    onSuccess: () => {
      setRemoving(false);
      toast({ title: 'Endpoint removed' });
      void queryClient.invalidateQueries({ queryKey: [WEBHOOKS_KEY] });
    },
    onError: (error) => {
      setRemoving(false);
      toast({ title: 'Could not remove the endpoint', description: errorMessage(error), variant: 'destructive' });
    },
  });
  return (
    <Card data-testid="webhook-endpoint">
      <CardContent className="grid gap-3 p-4">
        <div className="grid gap-1">
          <p className="font-medium break-all">{endpoint.url}</p>
          <p className="text-xs text-muted-foreground">{endpoint.events.join(', ')}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => ping.mutate()} disabled={ping.isPending}>
            <Send aria-hidden /> {WEBHOOK_TEXTS.ping}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setRemoving(true)}>
            <Trash2 aria-hidden /> {WEBHOOK_TEXTS.remove}
          </Button>
        </div>
        <h3 className="text-sm font-semibold">{WEBHOOK_TEXTS.deliveries}</h3>
        <DeliveryList endpointId={endpoint.id} />
        <ConfirmDialog
          open={removing}
          onOpenChange={setRemoving}
          onConfirm={() => remove.mutate()}
          pending={remove.isPending}
          title={WEBHOOK_TEXTS.remove}
          description={WEBHOOK_TEXTS.removeConfirm}
          confirmLabel={WEBHOOK_TEXTS.remove}
          destructive
        />
      </CardContent>
    </Card>
  );
}

function AddEndpoint() {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const add = useMutation({
    mutationFn: () => apiRequest<CreatedWebhook>('POST', WEBHOOKS_KEY, { url, events }),
    onSuccess: (endpoint) => {
      setCreated(endpoint);
      setUrl('');
      void queryClient.invalidateQueries({ queryKey: [WEBHOOKS_KEY] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  const toggle = (type: WebhookEventType, on: boolean) => setEvents((current) => (on ? [...current, type] : current.filter((e) => e !== type)));
  return (
    <Card>
      <CardContent className="p-4">
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <h2 className="text-lg font-semibold">{WEBHOOK_TEXTS.add}</h2>
          <div className="grid gap-1.5">
            <Label htmlFor="webhook-url">{WEBHOOK_TEXTS.url}</Label>
            <Input id="webhook-url" type="url" inputMode="url" placeholder="https://tools.example.com/hooks/hub" value={url} onChange={(e) => setUrl(e.target.value)} />
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">{WEBHOOK_TEXTS.events}</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {WEBHOOK_EVENT_TYPES.map((type) => (
                // Side by side, not wrapped: inside a form the checkbox brings a hidden native input, and a
                // wrapping label would name both (axe: multiple-labeled-controls).
                <div key={type} className="flex items-start gap-2 text-sm">
                  <Checkbox id={`webhook-event-${type}`} checked={events.includes(type)} onCheckedChange={(on) => toggle(type, on === true)} aria-label={type} />
                  <label htmlFor={`webhook-event-${type}`}>
                    <span className="font-medium">{type}</span>
                    <span className="block text-xs text-muted-foreground">{WEBHOOK_EVENT_LABELS[type]}</span>
                  </label>
                </div>
              ))}
            </div>
          </fieldset>
          {add.isError ? (
            <p role="alert" className="text-sm text-destructive-soft">
              {errorMessage(add.error)}
            </p>
          ) : null}
          <div>
            <Button type="submit" disabled={add.isPending}>
              <Webhook aria-hidden /> {WEBHOOK_TEXTS.add}
            </Button>
          </div>
          {created ? (
            <div className="grid gap-2 rounded-md border border-warning/50 p-3" data-testid="webhook-secret">
              <p className="text-sm font-medium">{WEBHOOK_TEXTS.secretOnce}</p>
              <code className="text-xs break-all">{created.secret}</code>
              <div>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  onClick={() => void navigator.clipboard?.writeText(created.secret).then(() => toast({ title: 'Secret copied' }))}
                >
                  <Copy aria-hidden /> Copy secret
                </Button>
              </div>
            </div>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}

/** /admin/webhooks: the label's other tools hear the hub's events (CONTRACT §28). Inside the team pages' shell (routes/admin-route.tsx). */
export function WebhooksPage() {
  useDocumentTitle(WEBHOOK_TEXTS.title);
  const endpoints = useQuery<{ endpoints: WebhookEndpoint[] }>({ queryKey: [WEBHOOKS_KEY] });
  return (
    <>
      <PageHeading title={WEBHOOK_TEXTS.title} description={WEBHOOK_TEXTS.intro} />
      <AddEndpoint />
      <section className="grid gap-3" aria-label="Endpoints">
        {endpoints.isPending ? (
          <Spinner />
        ) : endpoints.isError ? (
          <p className="text-destructive-soft">{errorMessage(endpoints.error)}</p>
        ) : endpoints.data.endpoints.length === 0 ? (
          <p className="text-sm text-muted-foreground">{WEBHOOK_TEXTS.none}</p>
        ) : (
          endpoints.data.endpoints.map((endpoint) => <EndpointCard key={endpoint.id} endpoint={endpoint} />)
        )}
      </section>
    </>
  );
}
