import { z } from 'zod';

/**
 * Webhooks for the label's other tools (CONTRACT §28): the events an endpoint may subscribe to,
 * the states of a delivery, the retry budget and the texts of the admin's page. One source for
 * the server and the client.
 */
export const WEBHOOK_EVENT_TYPES = [
  'submission.created',
  'submission.status_changed',
  'agreement.signed',
  'publication.published',
  'payment.succeeded',
  'refund.created',
  'earning.created',
  'payout.paid',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What "send a ping" delivers to one endpoint only; never subscribed to. */
export const WEBHOOK_PING = 'ping' as const;
export type WebhookDeliveredType = WebhookEventType | typeof WEBHOOK_PING;

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'submission.created': 'A submission is sent to the label',
  'submission.status_changed': 'A submission’s status changes',
  'agreement.signed': 'An owner signs the licence agreement',
  'publication.published': 'A video is published',
  'payment.succeeded': 'A payment succeeds',
  'refund.created': 'A payment is refunded',
  'earning.created': 'A bonus is earned',
  'payout.paid': 'A bonus is paid',
};

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** At most this many attempts per event and endpoint (CONTRACT §28). */
export const WEBHOOK_MAX_ATTEMPTS = 12;
/** A delivery that got no 2xx within this long has failed that attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/**
 * The waits before attempts 2…12, growing from under a minute to 8 hours: 11 waits that add up
 * to 23 h 52.5 min, so the last attempt falls inside the 24 hours (decision 198).
 */
export const WEBHOOK_RETRY_WAITS_S = [30, 120, 300, 900, 1800, 3600, 7200, 10800, 14400, 18000, 28800] as const;
/** Endpoints a label keeps; a small number, so the page lists them all. */
export const WEBHOOK_ENDPOINTS_MAX = 20;
export const WEBHOOK_URL_MAX = 2000;

export const createWebhookSchema = z.object({
  url: z
    .string({ message: 'Enter the URL to send events to' })
    .trim()
    .min(1, 'Enter the URL to send events to')
    .max(WEBHOOK_URL_MAX, `The URL must be at most ${WEBHOOK_URL_MAX} characters`)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
      } catch {
        return false;
      }
    }, 'Enter an http or https URL without a user name or password'),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `Events are ${WEBHOOK_EVENT_TYPES.join(', ')}` }), { message: 'Choose the events to send' })
    .min(1, 'Choose at least one event')
    .max(WEBHOOK_EVENT_TYPES.length)
    .refine((events) => new Set(events).size === events.length, 'Each event once'),
});
export type CreateWebhook = z.infer<typeof createWebhookSchema>;

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  createdAt: string;
  /** The latest attempt's outcome, for the list. */
  lastDelivery: { statusCode: number | null; error: string | null; at: string } | null;
}

/** POST /api/admin/webhooks: the endpoint with its signing secret, shown this once. */
export interface CreatedWebhook extends WebhookEndpoint {
  secret: string;
}

export interface WebhookAttempt {
  id: string;
  eventId: string;
  type: WebhookDeliveredType;
  attempt: number;
  /** The receiver's answer; null when none came (timeout, refused connection, blocked address). */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  at: string;
  /** Where the delivery of this event stands now. */
  deliveryStatus: WebhookDeliveryStatus;
  nextAttemptAt: string | null;
}

export const WEBHOOK_TEXTS = {
  title: 'Webhooks',
  intro: 'Send the hub’s events to the label’s other tools. Each delivery is signed with the endpoint’s secret in the Hub-Signature header.',
  add: 'Add endpoint',
  url: 'Endpoint URL',
  events: 'Events',
  secretOnce: 'Copy the signing secret now: it is shown only once.',
  ping: 'Send a ping',
  pinged: 'Ping queued',
  remove: 'Remove',
  removeConfirm: 'Remove this endpoint? Events stop going to it at once.',
  deliveries: 'Deliveries',
  noDeliveries: 'No deliveries yet.',
  none: 'No endpoints yet.',
} as const;
