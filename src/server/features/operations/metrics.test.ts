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
