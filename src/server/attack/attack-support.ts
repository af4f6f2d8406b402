import type { RouteOptions } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { PUBLIC_ROUTES } from '../platform/public-routes';
import { drainOutbox } from '../test/kit';

/** One registered route, one method. */
export interface WalkedRoute {
  method: string;
  url: string;
}

/** Collects every route buildApp registers (pass `collect` as its onRoute). */
export function routeCollector() {
  const routes: WalkedRoute[] = [];
  return {
    routes,
    collect(route: RouteOptions) {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url! });
    },
  };
}

export function isPublic({ method, url }: WalkedRoute): boolean {
  const asGet = method === 'HEAD' ? 'GET' : method;
  return PUBLIC_ROUTES.includes(`${asGet} ${url}`);
}

export const isAdminRoute = ({ url }: WalkedRoute) => url.startsWith('/api/admin/');

/** The route's path with each `:param` replaced by the value `values` gives for its name. */
export function fillParams(url: string, values: (name: string) => string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(values(name)));
}

/**
 * The same path with one letter percent-encoded, once per static segment: `/api/admin/x`
 * gives `/%61pi/admin/x`, `/api/%61dmin/x` and `/api/admin/%78`. The router decodes all of
 * them to the plain path, so each must be answered exactly like it.
 */
export function percentEncodedVariants(path: string, staticSegments: number[]): string[] {
  const segments = path.split('/');
  const variants: string[] = [];
  for (const index of staticSegments) {
    const segment = segments[index]!;
    const at = segment.search(/[A-Za-z]/);
    if (at === -1) continue;
    const encoded = `%${segment.charCodeAt(at).toString(16).toUpperCase()}`;
    const copy = [...segments];
    copy[index] = segment.slice(0, at) + encoded + segment.slice(at + 1);
    variants.push(copy.join('/'));
  }
  return variants;
}

/** Indexes of the segments of a route pattern that are literal text, not `:params` or `*`. */
export function staticSegmentIndexes(url: string): number[] {
  return url
    .split('/')
    .map((segment, index) => (segment !== '' && !segment.startsWith(':') && segment !== '*' ? index : -1))
    .filter((index) => index !== -1);
}

/** Tables whose rows may change while nothing is allowed: the counters of the rate limits. */
const VOLATILE_TABLES = new Set(['rate_limit_counters']);

/**
 * A fingerprint of every row of every product table, taken once the outbox has sent what is due:
 * equal before and after means nothing changed. (Sending writes: the row's status, and the link
 * some kinds mint at send time, a verification or reset token. An email an earlier test queued,
 * sent in the middle of a later test, would otherwise look like a change that test made.)
 */
export async function snapshotDatabase(db: Db): Promise<Record<string, string>> {
  await drainOutbox({ db }, { timeoutMs: 15_000, intervalMs: 50 });
  const tables = await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const snapshot: Record<string, string> = {};
  for (const { table_name: name } of rowsOf<{ table_name: string }>(tables)) {
    if (VOLATILE_TABLES.has(name)) continue;
    const [row] = rowsOf<{ n: string | number; digest: string | null }>(
      await db.execute(
        sql.raw(`select count(*) as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t`),
      ),
    );
    snapshot[name] = `${row!.n}:${row!.digest}`;
  }
  return snapshot;
}

/** node-postgres answers `{ rows }`, PGlite answers `{ rows }` too, typed differently by Drizzle. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** A deterministic pseudo-random sequence (mulberry32), so a failing fuzz run can be replayed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

