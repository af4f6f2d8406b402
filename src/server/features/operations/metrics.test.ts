import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids';
import { createArtist, createTestApp, sessionCookie, type TestApp } from '../../test/helpers';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t?.close());

  it('does not exist without METRICS_TOKEN', async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('route_not_found');
    } finally {
      await bare.close();
    }
  });

  it('answers 401 to a missing or wrong token, compared whole', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json().code).toBe('unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('counts requests by route pattern and status, never by URL, and reports the queue, outbox, sockets and pool', async () => {
    const artist = await createArtist(t.db, { email: 'private.person@example.com' });
    const cookie = await sessionCookie(t.app, t.db, artist);
    const secretId = newId();
    await t.app.inject({ method: 'GET', url: `/api/submissions/${secretId}?email=private.person@example.com`, headers: { cookie } });
    await t.app.inject({ method: 'GET', url: `/api/submissions/${secretId}` });

    // A job waiting for tomorrow.
    await t.app.jobs.enqueue('maintenance.prune-sessions', {}, { startAfter: new Date(Date.now() + 86_400_000) });

    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toContain('hub_http_requests_total{method="GET",route="/api/submissions/:id",status="404"} 1');
    expect(text).toContain('hub_http_requests_total{method="GET",route="/api/submissions/:id",status="401"} 1');
    expect(text).toMatch(/hub_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/submissions\/:id",status="404"\} \d/);
    expect(text).not.toContain(secretId);
    expect(text).not.toContain('private.person');
    expect(text).toMatch(/^hub_outbox_emails_waiting 0$/m);
    expect(text).toMatch(/^hub_jobs\{queue="maintenance\.prune-sessions",state="created"\} 1$/m);
    expect(text).toMatch(/^hub_open_sockets\{kind="websocket"\} 0$/m);
    expect(text).toMatch(/^hub_open_sockets\{kind="http"\} \d+$/m);
    if (t.database.kind === 'postgres') expect(text).toMatch(/^hub_db_pool_connections\{state="total"\} [1-9]\d*$/m);
    expect(text).toContain('process_resident_memory_bytes');
  });
});

/**
 * The lint rules of Prometheus's own linter (promtool check metrics, client_golang's promlint)
 * over the parsed exposition: the problems found, one line each.
 */
function lintMetrics(families: ParsedFamily[]): string[] {
  const problems: string[] = [];
  const snake = /^[a-z_][a-z0-9_]*$/;
  // promlint's lists: base units with an SI or binary prefix, units of time other than seconds, abbreviations.
  const units =
    /_((pico|nano|micro|milli|centi|deci|deca|hecto|kilo|kibi|mega|mebi|giga|gibi|tera|tebi|peta|pebi)(amperes|bytes|hertz|joules|kelvin|meters|metres|seconds|volts|grams)|minutes|hours|days|weeks)(_|$)/;
  const abbreviations = /_(s|ms|us|ns|sec|b|kb|mb|gb|tb|pb|m|h|d)(_|$)/;
  for (const family of families) {
    const { name, type } = family;
    if (!family.help) problems.push(`${name}: no help text`);
    if (name.includes(':')) problems.push(`${name}: metric names should not contain ':'`);
    if (!snake.test(name)) problems.push(`${name}: metric names should be written in 'snake_case' not 'camelCase'`);
    if (type === 'COUNTER' && !name.endsWith('_total')) problems.push(`${name}: counter metrics should have "_total" suffix`);
    if (type !== 'COUNTER' && name.endsWith('_total')) problems.push(`${name}: non-counter metrics should not have "_total" suffix`);
    if (type !== 'HISTOGRAM' && type !== 'SUMMARY' && /_(bucket|count|sum)$/.test(name)) problems.push(`${name}: non-histogram and non-summary metrics should not have "_bucket", "_count" or "_sum" suffix`);
    if (/_(counter|gauge|histogram|summary|untyped)(_|$)/.test(name)) problems.push(`${name}: metric name should not include type`);
    if (units.test(name)) problems.push(`${name}: use base unit`);
    if (abbreviations.test(name)) problems.push(`${name}: metric names should not contain abbreviated units`);
    for (const sample of family.metrics) {
      for (const label of Object.keys(sample.labels ?? {})) {
        if (!snake.test(label)) problems.push(`${name}: label names should be written in 'snake_case' not 'camelCase' (${label})`);
        if (type !== 'HISTOGRAM' && label === 'le') problems.push(`${name}: non-histogram metrics should not have "le" label`);
        if (type !== 'SUMMARY' && label === 'quantile') problems.push(`${name}: non-summary metrics should not have "quantile" label`);
      }
    }
  }
  return problems;
}

describe('metrics stay bounded (CONTRACT §23)', () => {
  let t: TestApp;
  let clientDir: string;
  const assets = Array.from({ length: 50 }, (_, i) => `chunk-${i}-${newId().slice(0, 8)}.js`);
  const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  beforeAll(async () => {
    // A build with 50 hashed files, as every deploy brings new ones.
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'hub-client-'));
    mkdirSync(path.join(clientDir, 'assets'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><html><head><title>Hub</title></head><body><div id="root"></div></body></html>');
    for (const name of assets) writeFileSync(path.join(clientDir, 'assets', name), `console.log(${JSON.stringify(name)});`);
    t = await createTestApp({ METRICS_TOKEN: TOKEN }, { client: 'dist', clientDir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('a fresh instance reports every queue in every state, job failures at 0', async () => {
    const families = parsePrometheusTextFormat(await scrape());
    const jobs = families.find((family) => family.name === 'hub_jobs')!;
    const failed = jobs.metrics.filter((sample) => sample.labels?.state === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((sample) => Number(sample.value) === 0)).toBe(true);
    expect(failed.map((sample) => sample.labels!.queue)).toContain('maintenance.prune-sessions');
    const states = new Set(jobs.metrics.map((sample) => sample.labels!.state));
    expect([...states].sort()).toEqual(['active', 'cancelled', 'completed', 'created', 'failed', 'retry']);
  });

  it('after 50 different static files and pages, /metrics holds no file name and no path: one label each', async () => {
    for (const name of assets) expect((await t.app.inject({ url: `/assets/${name}` })).statusCode).toBe(200);
    for (const page of ['/dashboard', '/admin', '/auth', `/submissions/${newId()}`]) expect((await t.app.inject({ url: page })).statusCode).toBe(200);
    const text = await scrape();
    for (const name of assets) expect(text).not.toContain(name);
    expect(text).not.toContain('/assets/');
    expect(text).not.toContain('/dashboard');
    const requests = parsePrometheusTextFormat(text).find((family) => family.name === 'hub_http_requests_total')!;
    const count = (route: string) => requests.metrics.filter((s) => s.labels?.route === route).reduce((sum, s) => sum + Number(s.value), 0);
    expect(count('(static)')).toBe(50);
    expect(count('(page)')).toBe(4);
  });

  it("passes the Prometheus linter's rules, parsed by a Prometheus text parser", async () => {
    const families = parsePrometheusTextFormat(await scrape());
    expect(families.length).toBeGreaterThan(10);
    expect(lintMetrics(families)).toEqual([]);
    // The rules find what they are for: prom-client's three gauges named `_total` before they were dropped.
    expect(lintMetrics([{ name: 'nodejs_active_handles_total', help: 'x', type: 'GAUGE', metrics: [] }])).toEqual([
      'nodejs_active_handles_total: non-counter metrics should not have "_total" suffix',
    ]);
    expect(families.map((family) => family.name)).toContain('nodejs_active_handles');
  });
});
