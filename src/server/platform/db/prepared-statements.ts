import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * A PostgreSQL connection that prepares each query it is given with parameters once, and then
 * only binds and executes it (docs/decisions/183-prepared-statements.md). PostgreSQL parses,
 * analyses and plans an unnamed query on every run: for the product's short queries that was
 * about half of the server's CPU per query (issue 37). The statement's name is a hash of its
 * text, so the same text always gets the same name and one name never carries two texts.
 *
 * Bounded: queries without parameters (migrations, DDL, maintenance) are sent as they are, as
 * is any text past MAX_TEXT or once MAX_STATEMENTS distinct texts have been named (generated
 * lists of every length must not fill a connection's memory).
 */
const MAX_TEXT = 8_000;
const MAX_STATEMENTS = 2_000;
const names = new Map<string, string>();

/** The name a text is prepared under; undefined when it is sent unnamed (too long, or past the bound). */
export function nameFor(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && text.length <= MAX_TEXT && names.size < MAX_STATEMENTS) {
    name = `hub_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
}

/** pg's own `query`, whose overloads the override below passes on unchanged. */
const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;

export class PreparingClient extends pg.Client {}

Object.defineProperty(PreparingClient.prototype, 'query', {
  value: function queryPrepared(this: pg.Client, ...args: unknown[]) {
    const [config, values] = args;
    if (typeof config === 'string') {
      const name = hasParameters(values) ? nameFor(config) : undefined;
      if (name) return query.call(this, { text: config, values, name }, ...args.slice(2));
    } else if (isUnnamedQuery(config)) {
      // The parameters come inside the config or, as Drizzle passes them, beside it.
      const name = hasParameters(config.values ?? values) ? nameFor(config.text) : undefined;
      if (name) return query.call(this, { ...config, name }, ...args.slice(1));
    }
    return query.apply(this, args);
  },
  writable: true,
  configurable: true,
});

const hasParameters = (values: unknown): values is unknown[] => Array.isArray(values) && values.length > 0;

/** A query config that is neither named already nor a submittable (a cursor, a stream). */
function isUnnamedQuery(config: unknown): config is pg.QueryConfig & { text: string } {
  if (typeof config !== 'object' || config === null) return false;
  const query = config as Partial<pg.QueryConfig> & { submit?: unknown };
  return typeof query.text === 'string' && query.name === undefined && typeof query.submit !== 'function';
}
