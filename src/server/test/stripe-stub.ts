import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Stripe-compatible REST server for tests: the PaymentIntent endpoints the SDK calls, with
 * form-encoded bodies, Bearer authentication, Idempotency-Key replay and Stripe-shaped JSON and
 * errors. Tests drive payments to their outcome with `setIntent` (what a card confirmation
 * would do at Stripe) and read `requests` to see what the server asked for.
 */
export interface StubIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  payment_method_types: string[];
  description: string | null;
  created: number;
  livemode: false;
  last_payment_error: { message: string; code?: string } | null;
}

/** A full or partial refund of an intent's charge. */
export interface StubRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  status: 'succeeded';
  reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

/** The charge of a paid intent, as `charge.refunded` carries it. */
export interface StubCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  currency: string;
  payment_intent: string;
  refunded: boolean;
  metadata: Record<string, string>;
}

export interface StubRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: Record<string, unknown>;
}

export interface StripeStub {
  url: string;
  secretKey: string;
  intents: Map<string, StubIntent>;
  refunds: Map<string, StubRefund>;
  requests: StubRequest[];
  /** The charge of a succeeded intent, with what has been refunded of it. */
  chargeOf(intentId: string): StubCharge;
  /** Changes an intent as Stripe would after a confirmation, a failure or a cancellation. */
  setIntent(id: string, change: Partial<StubIntent>): StubIntent;
  /** Answers the next `count` requests with a 500, as an unreachable Stripe would look to the SDK after retries. */
  failNext(count?: number): void;
  close(): Promise<void>;
}

const token = (bytes = 12) => randomBytes(bytes).toString('hex');

/** Decodes Stripe's form encoding: `metadata[a]=b`, `payment_method_types[0]=card`. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const [head, ...rest] = rawKey.split('[');
    const path = [head!, ...rest.map((p) => p.replace(/]$/, ''))];
    let node: Record<string, unknown> = out;
    path.forEach((segment, i) => {
      if (i === path.length - 1) {
        node[segment] = value;
      } else {
        node[segment] ??= {};
        node = node[segment] as Record<string, unknown>;
      }
    });
  }
  return out;
}

const asList = (value: unknown): string[] =>
  value && typeof value === 'object' ? Object.values(value as Record<string, string>) : [];

export async function startStripeStub(secretKey = `sk_test_${token()}`): Promise<StripeStub> {
  const intents = new Map<string, StubIntent>();
  const refunds = new Map<string, StubRefund>();
  const requests: StubRequest[] = [];
  const chargeId = (intentId: string) => `ch_${intentId.slice(3)}`;
  const refundedOf = (intentId: string) =>
    [...refunds.values()].filter((r) => r.payment_intent === intentId).reduce((sum, r) => sum + r.amount, 0);
  const chargeOf = (intentId: string): StubCharge => {
    const intent = intents.get(intentId);
    if (!intent) throw new Error(`No stub intent ${intentId}`);
    const refunded = refundedOf(intentId);
    return {
      id: chargeId(intentId),
      object: 'charge',
      amount: intent.amount_received,
      amount_refunded: refunded,
      currency: intent.currency,
      payment_intent: intentId,
      refunded: intent.amount_received > 0 && refunded >= intent.amount_received,
      metadata: intent.metadata,
    };
  };
  const replays = new Map<string, { status: number; body: unknown }>();
  let failures = 0;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${token(8)}` });
    res.end(JSON.stringify(body));
  };
  const error = (status: number, type: string, message: string, code?: string) => ({
    status,
    body: { error: { type, message, ...(code ? { code } : {}) } },
  });

  function route(method: string, path: string, params: Record<string, unknown>): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/refunds') {
      const intentId = String(params.payment_intent ?? '');
      const intent = intents.get(intentId);
      if (!intent) return error(404, 'invalid_request_error', `No such payment_intent: '${intentId}'`, 'resource_missing');
      if (intent.status !== 'succeeded' || intent.amount_received === 0) {
        return error(400, 'invalid_request_error', `This PaymentIntent (${intentId}) does not have a successful charge to refund.`);
      }
      const left = intent.amount_received - refundedOf(intentId);
      const amount = params.amount === undefined ? left : Number(params.amount);
      if (left <= 0) {
        return error(400, 'invalid_request_error', `Charge ${chargeId(intentId)} has already been refunded.`, 'charge_already_refunded');
      }
      if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
        return error(400, 'invalid_request_error', 'Refund amount is greater than the unrefunded amount on the charge.', 'amount_too_large');
      }
      const refund: StubRefund = {
        id: `re_${token()}`,
        object: 'refund',
        amount,
        currency: intent.currency,
        charge: chargeId(intentId),
        payment_intent: intentId,
        status: 'succeeded',
        reason: typeof params.reason === 'string' ? params.reason : null,
        metadata: (params.metadata as Record<string, string>) ?? {},
        created: Math.floor(Date.now() / 1000),
      };
      refunds.set(refund.id, refund);
      return { status: 200, body: refund };
    }
    const one = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (method === 'POST' && cancel) {
      const intent = intents.get(decodeURIComponent(cancel[1]!));
      if (!intent) return error(404, 'invalid_request_error', `No such payment_intent: '${cancel[1]}'`, 'resource_missing');
      if (['succeeded', 'processing', 'canceled'].includes(intent.status)) {
        return error(
          400,
          'invalid_request_error',
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
          'payment_intent_unexpected_state',
        );
      }
      intent.status = 'canceled';
      return { status: 200, body: intent };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 50) {
        return error(400, 'invalid_request_error', 'Amount must be at least $0.50 usd', 'amount_too_small');
      }
      const id = `pi_${token()}`;
      const intent: StubIntent = {
        id,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency: String(params.currency ?? '').toLowerCase(),
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${token()}`,
        metadata: (params.metadata as Record<string, string>) ?? {},
        payment_method_types: asList(params.allowed_payment_method_types ?? params.payment_method_types),
        description: typeof params.description === 'string' ? params.description : null,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        last_payment_error: null,
      };
      intents.set(id, intent);
      return { status: 200, body: intent };
    }
    if (one) {
      const intent = intents.get(decodeURIComponent(one[1]!));
      if (!intent) return error(404, 'invalid_request_error', `No such payment_intent: '${one[1]}'`, 'resource_missing');
      if (method === 'GET') return { status: 200, body: intent };
      if (method === 'POST') {
        if (params.amount !== undefined) intent.amount = Number(params.amount);
        if (typeof params.currency === 'string') intent.currency = params.currency;
        if (params.metadata) intent.metadata = { ...intent.metadata, ...(params.metadata as Record<string, string>) };
        return { status: 200, body: intent };
      }
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stub');
    const params = req.method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? undefined;
    requests.push({ method: req.method ?? 'GET', path: url.pathname, idempotencyKey, params });

    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      const e = error(401, 'invalid_request_error', 'Invalid API Key provided');
      return send(res, e.status, e.body);
    }
    if (failures > 0) {
      failures--;
      const e = error(500, 'api_error', 'Something went wrong on our end');
      return send(res, e.status, e.body);
    }
    const replayKey = idempotencyKey && req.method === 'POST' ? `${url.pathname} ${idempotencyKey}` : undefined;
    const replay = replayKey ? replays.get(replayKey) : undefined;
    if (replay) {
      res.setHeader('idempotent-replayed', 'true');
      return send(res, replay.status, replay.body);
    }
    const result = route(req.method ?? 'GET', url.pathname, params);
    // Stripe replays the saved answer of a key; it answers from the state at the first request.
    const answer = { status: result.status, body: JSON.parse(JSON.stringify(result.body)) as unknown };
    if (replayKey && result.status < 500) replays.set(replayKey, answer);
    send(res, answer.status, answer.body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, { error: { type: 'api_error', message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    intents,
    refunds,
    requests,
    chargeOf,
    setIntent(id, change) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`No stub intent ${id}`);
      Object.assign(intent, change);
      return intent;
    },
    failNext(count = 1) {
      failures = count;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
