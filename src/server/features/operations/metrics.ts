import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sql, type Database } from '../../platform/db/client';
import { apiError, errorBody } from '../../platform/errors';

/**
 * GET /metrics in Prometheus text (CONTRACT §20, docs/decisions/152-metrics.md). Requests are
 * labelled by the route's pattern (`/api/submissions/:id`), never the URL, so no id, email or
 * query string ever becomes a label; the rest is read from the database and the server when
 * Prometheus scrapes. Without METRICS_TOKEN the route answers 404 as if it did not exist.
 */

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** prom-client's default gauges whose names end in `_total`, which only a counter's may. */
const GAUGES_NAMED_TOTAL = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/**
 * A request's `route` label: its route's pattern, and one label for each family that would
 * otherwise grow with every build or URL (CONTRACT §23): every static file of the client's build
 * is `(static)` (@fastify/static registers one route per file and marks it with `config.file`),
 * every page of the client `(page)`, anything else no route matched `(no route)`.
 */
function routeLabelOf(request: FastifyRequest, reply: FastifyReply): string {
  if (typeof (request.routeOptions.config as { file?: unknown }).file === 'string') return '(static)';
  if (request.routeOptions.url !== undefined) return request.routeOptions.url;
  return String(reply.getHeader('content-type') ?? '').startsWith('text/html') ? '(page)' : '(no route)';
}

/** Compares in constant time: hashing first makes both sides the same length. */
function tokenMatches(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/**
 * The instance's metrics: call before any route is registered, so that the timing hook sees
 * every one; the returned registry is what GET /metrics serves (`metricsRoutes`).
 */
export function collectMetrics(app: FastifyInstance, database: Database): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters fail the Prometheus linter (promtool: "non-counter metrics should
  // not have _total suffix"); each is the sum of a labelled series prom-client exports beside it
  // (nodejs_active_handles{type} …), so nothing is lost (CONTRACT §23).
  for (const name of GAUGES_NAMED_TOTAL) registry.removeSingleMetric(name);

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'hub_http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames, registers: [registry] });
  const durations = new Histogram({
    name: 'hub_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // One pair of series per method, route and status, looked up once: labelling by an object
  // each time hashes its keys on every request (issue 37). A callback hook: it runs on every request.
  const series = new Map<string, { requests: ReturnType<typeof requests.labels>; durations: ReturnType<typeof durations.labels> }>();
  app.addHook('onResponse', (request, reply, done) => {
    const method = METHODS.has(request.method) ? request.method : 'OTHER';
    const route = routeLabelOf(request, reply);
    const status = String(reply.statusCode);
    const key = `${method} ${status} ${route}`;
    let pair = series.get(key);
    if (!pair) {
      const labels = { method, route, status };
      pair = { requests: requests.labels(labels), durations: durations.labels(labels) };
      series.set(key, pair);
    }
    pair.requests.inc();
    pair.durations.observe(reply.elapsedTime / 1000);
    done();
  });

  const { db } = database;
  new Gauge({
    name: 'hub_jobs',
    help: 'Jobs in the queue by queue and state (created and retry: waiting; failed: kept 7 days)',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      // Every queue in every state pg-boss knows, zero included: "no failures" reads 0, not nothing (CONTRACT §23).
      const result = await db.execute(sql`
        select q.name, s.state::text as state, count(j.id)::int as n
        from pgboss.queue q
        cross join unnest(enum_range(null::pgboss.job_state)) as s(state)
        left join pgboss.job j on j.name = q.name and j.state = s.state
        group by 1, 2`);
      for (const row of rowsOf(result)) this.set({ queue: String(row.name), state: String(row.state) }, Number(row.n));
    },
  });
  new Gauge({
    name: 'hub_outbox_emails_waiting',
    help: 'Emails written to the outbox and not sent yet',
    registers: [registry],
    async collect() {
      const result = await db.execute(sql`select count(*)::int as n from outbox_emails where status = 'pending'`);
      this.set(Number(rowsOf(result)[0]!.n));
    },
  });
  new Gauge({
    name: 'hub_open_sockets',
    help: 'Open connections to this instance: HTTP (TCP) and WebSocket',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const http = await new Promise<number>((resolve) => app.server.getConnections((error, count) => resolve(error ? 0 : count)));
      this.set({ kind: 'http' }, http);
      this.set({ kind: 'websocket' }, app.websocketServer?.clients.size ?? 0);
    },
  });
  if (database.pool) {
    const pool = database.pool;
    new Gauge({
      name: 'hub_db_pool_connections',
      help: 'PostgreSQL connections of this instance: total, idle, and requests waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  return registry;
}

export async function metricsRoutes(app: FastifyInstance, { registry, token }: { registry: Registry; token: string | undefined }) {
  app.get('/metrics', async (request, reply) => {
    if (!token) return reply.status(404).send(errorBody('route_not_found', `Route ${request.url.split('?')[0]} not found`));
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!tokenMatches(given, token)) {
      reply.header('www-authenticate', 'Bearer');
      throw apiError('unauthorized');
    }
    reply.header('cache-control', 'no-store');
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
