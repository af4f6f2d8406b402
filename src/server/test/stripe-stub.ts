import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signedEvent } from './stripe-events';

/**
 * A Stripe-compatible REST server for tests: the PaymentIntent endpoints the SDK calls, and
 * Connect's accounts, account links and transfers, with form-encoded bodies, Bearer
 * authentication, Idempotency-Key replay as Stripe does it (same key and parameters → the saved
 * answer; same key, other parameters → 400 idempotency_error) and Stripe-shaped JSON and errors.
 * Tests drive payments to their outcome with `setIntent` (what a card confirmation would do at
 * Stripe), connected accounts with `setAccount` and `accountUpdatedEvent`, and read `requests`
 * to see what the server asked for. An account link's URL is a page of this server: opening it
 * completes the onboarding (and, with `setWebhook`, delivers a signed `account.updated`) and
 * redirects to the link's return URL; a link opened a second time redirects to its refresh URL.
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
  /** When the charge was made: the moment its intent succeeded. */
  created: number;
  status: 'succeeded';
  paid: true;
  amount: number;
  amount_refunded: number;
  currency: string;
  payment_intent: string;
  refunded: boolean;
  metadata: Record<string, string>;
}

/** A Connect account, with what decides whether it can receive transfers and pay out. */
export interface StubAccount {
  id: string;
  object: 'account';
  type: string;
  email: string | null;
  country: string;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  capabilities: Record<string, 'active' | 'inactive' | 'pending'>;
  metadata: Record<string, string>;
  created: number;
}

export interface StubAccountLink {
  object: 'account_link';
  url: string;
  created: number;
  expires_at: number;
  account: string;
  type: string;
  return_url: string;
  refresh_url: string;
  used: boolean;
}

export interface StubTransfer {
  id: string;
  object: 'transfer';
  amount: number;
  amount_reversed: number;
  currency: string;
  destination: string;
  description: string | null;
  metadata: Record<string, string>;
  transfer_group: string | null;
  reversed: boolean;
  created: number;
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
  accounts: Map<string, StubAccount>;
  accountLinks: StubAccountLink[];
  transfers: Map<string, StubTransfer>;
  requests: StubRequest[];
  /** Changes a connected account as Stripe would when its owner sends details or Stripe checks them. */
  setAccount(id: string, change: Partial<StubAccount>): StubAccount;
  /** The signed `account.updated` event Stripe would send for the account as it is now. */
  accountUpdatedEvent(id: string, webhookSecret: string): { id: string; payload: string; headers: Record<string, string> };
  /** Where the onboarding page delivers `account.updated` once the artist has finished it. */
  setWebhook(webhook: { url: string; secret: string } | undefined): void;
  /** The charge of a succeeded intent, with what has been refunded of it. */
  chargeOf(intentId: string): StubCharge;
  /** Changes an intent as Stripe would after a confirmation, a failure or a cancellation. */
  setIntent(id: string, change: Partial<StubIntent>): StubIntent;
  /** A refund the team makes in Stripe's dashboard, outside the product: in full unless an amount is given. */
  refundFromDashboard(intentId: string, amount?: number): StubRefund;
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

/** The parameters as a text that does not depend on their order, to compare two requests. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

const asList = (value: unknown): string[] =>
  value && typeof value === 'object' ? Object.values(value as Record<string, string>) : [];

export async function startStripeStub(secretKey = `sk_test_${token()}`): Promise<StripeStub> {
  const intents = new Map<string, StubIntent>();
  const refunds = new Map<string, StubRefund>();
  const requests: StubRequest[] = [];
  const chargeId = (intentId: string) => `ch_${intentId.slice(3)}`;
  const refundedOf = (intentId: string) =>
    [...refunds.values()].filter((r) => r.payment_intent === intentId).reduce((sum, r) => sum + r.amount, 0);
  /** When each intent succeeded, as its charge's `created`. */
  const succeededAt = new Map<string, number>();
  const chargeOf = (intentId: string): StubCharge => {
    const intent = intents.get(intentId);
    if (!intent) throw new Error(`No stub intent ${intentId}`);
    const refunded = refundedOf(intentId);
    return {
      id: chargeId(intentId),
      object: 'charge',
      created: succeededAt.get(intentId) ?? intent.created,
      status: 'succeeded',
      paid: true,
      amount: intent.amount_received,
      amount_refunded: refunded,
      currency: intent.currency,
      payment_intent: intentId,
      refunded: intent.amount_received > 0 && refunded >= intent.amount_received,
      metadata: intent.metadata,
    };
  };
  const accounts = new Map<string, StubAccount>();
  const accountLinks: StubAccountLink[] = [];
  const transfers = new Map<string, StubTransfer>();
  let baseUrl = '';
  let webhook: { url: string; secret: string } | undefined;
  const replays = new Map<string, { method: string; path: string; params: string; status: number; body: unknown }>();
  let failures = 0;
  const now = () => Math.floor(Date.now() / 1000);

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${token(8)}` });
    res.end(JSON.stringify(body));
  };
  const error = (status: number, type: string, message: string, code?: string) => ({
    status,
    body: { error: { type, message, ...(code ? { code } : {}) } },
  });

  function createRefund(
    intentId: string,
    requested: number | undefined,
    details: { reason: string | null; metadata: Record<string, string> },
  ): { status: number; body: unknown } {
    const intent = intents.get(intentId);
    if (!intent) return error(404, 'invalid_request_error', `No such payment_intent: '${intentId}'`, 'resource_missing');
    if (intent.status !== 'succeeded' || intent.amount_received === 0) {
      return error(400, 'invalid_request_error', `This PaymentIntent (${intentId}) does not have a successful charge to refund.`);
    }
    const left = intent.amount_received - refundedOf(intentId);
    const amount = requested === undefined ? left : requested;
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
      reason: details.reason,
      metadata: details.metadata,
      created: Math.floor(Date.now() / 1000),
    };
    refunds.set(refund.id, refund);
    return { status: 200, body: refund };
  }

  function route(method: string, path: string, params: Record<string, unknown>): { status: number; body: unknown } {
    const connect = connectRoute(method, path, params);
    if (connect) return connect;
    if (method === 'POST' && path === '/v1/refunds') {
      return createRefund(String(params.payment_intent ?? ''), params.amount === undefined ? undefined : Number(params.amount), {
        reason: typeof params.reason === 'string' ? params.reason : null,
        metadata: (params.metadata as Record<string, string>) ?? {},
      });
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

  /** Connect: accounts (create, retrieve), account links and transfers. */
  function connectRoute(method: string, path: string, params: Record<string, unknown>): { status: number; body: unknown } | undefined {
    if (method === 'POST' && path === '/v1/accounts') {
      const type = String(params.type ?? 'standard');
      if (!['express', 'standard', 'custom'].includes(type)) return error(400, 'invalid_request_error', `Invalid type: must be one of custom, express, or standard`);
      const requested = (params.capabilities ?? {}) as Record<string, { requested?: string }>;
      const account: StubAccount = {
        id: `acct_${token(8)}`,
        object: 'account',
        type,
        email: typeof params.email === 'string' ? params.email : null,
        country: typeof params.country === 'string' ? params.country : 'US',
        charges_enabled: false,
        payouts_enabled: false,
        details_submitted: false,
        capabilities: Object.fromEntries(Object.entries(requested).filter(([, c]) => c?.requested === 'true').map(([name]) => [name, 'inactive' as const])),
        metadata: (params.metadata as Record<string, string>) ?? {},
        created: now(),
      };
      accounts.set(account.id, account);
      return { status: 200, body: account };
    }
    const oneAccount = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (method === 'GET' && oneAccount) {
      const account = accounts.get(decodeURIComponent(oneAccount[1]!));
      if (!account) return error(404, 'invalid_request_error', `No such account: '${oneAccount[1]}'`, 'resource_missing');
      return { status: 200, body: account };
    }
    if (method === 'POST' && path === '/v1/account_links') {
      const accountId = String(params.account ?? '');
      if (!accounts.has(accountId)) return error(400, 'invalid_request_error', `No such account: '${accountId}'`, 'resource_missing');
      for (const name of ['return_url', 'refresh_url'] as const) {
        if (typeof params[name] !== 'string' || !/^https?:\/\//.test(params[name])) {
          return error(400, 'invalid_request_error', `Missing required param: ${name}.`, 'parameter_missing');
        }
      }
      if (params.type !== 'account_onboarding' && params.type !== 'account_update') {
        return error(400, 'invalid_request_error', 'Invalid type: must be one of account_onboarding or account_update');
      }
      const link: StubAccountLink = {
        object: 'account_link',
        url: `${baseUrl}/connect/onboarding/${token()}`,
        created: now(),
        expires_at: now() + 300,
        account: accountId,
        type: params.type,
        return_url: String(params.return_url),
        refresh_url: String(params.refresh_url),
        used: false,
      };
      accountLinks.push(link);
      const { account: _a, type: _t, return_url: _r, refresh_url: _f, used: _u, ...body } = link;
      return { status: 200, body };
    }
    if (method === 'POST' && path === '/v1/transfers') {
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 1) return error(400, 'invalid_request_error', 'Invalid positive integer', 'parameter_invalid_integer');
      const destination = String(params.destination ?? '');
      const account = accounts.get(destination);
      if (!account) return error(400, 'invalid_request_error', `No such destination: '${destination}'`, 'resource_missing');
      if (account.capabilities.transfers !== 'active') {
        return error(
          400,
          'invalid_request_error',
          'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
          'insufficient_capabilities_for_transfer',
        );
      }
      const transfer: StubTransfer = {
        id: `tr_${token()}`,
        object: 'transfer',
        amount,
        amount_reversed: 0,
        currency: String(params.currency ?? '').toLowerCase(),
        destination,
        description: typeof params.description === 'string' ? params.description : null,
        metadata: (params.metadata as Record<string, string>) ?? {},
        transfer_group: typeof params.transfer_group === 'string' ? params.transfer_group : null,
        reversed: false,
        created: now(),
      };
      transfers.set(transfer.id, transfer);
      return { status: 200, body: transfer };
    }
    return undefined;
  }

  /** What Stripe's hosted onboarding does once the owner has sent everything: the account can receive transfers and pay out. */
  async function onboard(link: StubAccountLink, res: ServerResponse) {
    if (link.used) {
      res.writeHead(302, { location: link.refresh_url });
      return res.end();
    }
    link.used = true;
    const account = accounts.get(link.account)!;
    Object.assign(account, {
      details_submitted: true,
      payouts_enabled: true,
      charges_enabled: true,
      capabilities: { ...account.capabilities, transfers: 'active' },
    });
    if (webhook) {
      const event = signedEvent(webhook.secret, 'account.updated', account);
      await fetch(webhook.url, { method: 'POST', headers: event.headers, body: event.payload });
    }
    res.writeHead(302, { location: link.return_url });
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stub');
    const params = req.method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? undefined;
    requests.push({ method: req.method ?? 'GET', path: url.pathname, idempotencyKey, params });

    // Stripe's hosted onboarding page: opened by the artist's browser, no API key.
    const onboarding = /^\/connect\/onboarding\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && onboarding) {
      const link = accountLinks.find((l) => l.url === `${baseUrl}${url.pathname}`);
      if (!link) return send(res, 404, { error: { type: 'invalid_request_error', message: 'This link is not valid' } });
      return onboard(link, res);
    }

    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      const e = error(401, 'invalid_request_error', 'Invalid API Key provided');
      return send(res, e.status, e.body);
    }
    if (failures > 0) {
      failures--;
      const e = error(500, 'api_error', 'Something went wrong on our end');
      return send(res, e.status, e.body);
    }
    const replayKey = idempotencyKey && req.method === 'POST' ? idempotencyKey : undefined;
    const replay = replayKey ? replays.get(replayKey) : undefined;
    if (replay) {
      // A key names one request: used again for another endpoint or other parameters, Stripe refuses.
      if (replay.path !== url.pathname || replay.method !== req.method || replay.params !== canonical(params)) {
        const e = error(
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        );
        return send(res, e.status, e.body);
      }
      res.setHeader('idempotent-replayed', 'true');
      return send(res, replay.status, replay.body);
    }
    const result = route(req.method ?? 'GET', url.pathname, params);
    // Stripe replays the saved answer of a key; it answers from the state at the first request.
    const answer = { status: result.status, body: JSON.parse(JSON.stringify(result.body)) as unknown };
    if (replayKey && result.status < 500) {
      replays.set(replayKey, { method: req.method ?? 'POST', path: url.pathname, params: canonical(params), ...answer });
    }
    send(res, answer.status, answer.body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, { error: { type: 'api_error', message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    secretKey,
    intents,
    refunds,
    accounts,
    accountLinks,
    transfers,
    requests,
    chargeOf,
    setAccount(id, change) {
      const account = accounts.get(id);
      if (!account) throw new Error(`No stub account ${id}`);
      return Object.assign(account, change);
    },
    accountUpdatedEvent(id, webhookSecret) {
      const account = accounts.get(id);
      if (!account) throw new Error(`No stub account ${id}`);
      return signedEvent(webhookSecret, 'account.updated', JSON.parse(JSON.stringify(account)) as StubAccount);
    },
    setWebhook(value) {
      webhook = value;
    },
    setIntent(id, change) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`No stub intent ${id}`);
      if (change.status === 'succeeded' && intent.status !== 'succeeded') succeededAt.set(id, now());
      Object.assign(intent, change);
      return intent;
    },
    refundFromDashboard(intentId, amount) {
      const result = createRefund(intentId, amount, { reason: 'requested_by_customer', metadata: {} });
      if (result.status !== 200) throw new Error(`Stub refund refused: ${JSON.stringify(result.body)}`);
      return result.body as StubRefund;
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
