// @ts-check
/**
 * The embedded database's own thread (docs/decisions/182-embedded-database-thread.md): PGlite runs
 * here, so its engine no longer shares the thread that answers requests. The server's side is
 * platform/db/pglite-in-thread.ts; this side only carries out what it is asked, one message each:
 *
 *   {id, op: 'query', sql, params, rowMode, textTypes, tx?}  → PGlite's result
 *   {id, op: 'exec', sql, tx?}                                → PGlite's results
 *   either of them with begin: true instead of tx             → the same, run first thing in a new
 *                                                                transaction, whose number comes back as `tx`
 *   {id, op: 'end', tx, commit}                               → once it has committed (or rolled back)
 *   {id, op: 'listen' | 'unlisten', channel}                  → notifications arrive as {notify: channel, payload}
 *   {id, op: 'dump'}                                          → the data directory as a tar (ArrayBuffer)
 *   {id, op: 'close'}
 *
 * Answers are {id, result} or {id, error: {message, props}}, with `tx` after a begin (even when
 * its statement failed: the transaction is open and waits for its `end`); an error's own fields (code,
 * detail, constraint…) travel with it, as the server's code reads them. Plain JavaScript:
 * a thread starts without the TypeScript loader the server runs under.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse as results, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

if (!parentPort) throw new Error('pglite-thread.mjs runs as a worker thread');
const port = parentPort;

/** @type {PGlite} */
let pglite;
try {
  // The engine comes compiled from the server's thread (pglite-in-thread.ts, pgliteEngine).
  pglite = await PGlite.create(workerData.dir, { extensions: { pg_trgm }, ...workerData.engine });
} catch (error) {
  port.postMessage({ ready: false, error: describe(error) });
  throw error;
}

/** Open transactions by number: each waits for its `end`. */
const transactions = new Map();
/** Each transaction's outcome, from the moment it is asked for. */
const finishing = new Map();
let nextTransaction = 1;
/** Channels listened to, with the function that stops each. */
const listening = new Map();

/** Types kept as the text PostgreSQL sent (Drizzle reads its timestamps itself). */
const asText = (/** @type {number[] | undefined} */ types) =>
  types && types.length > 0 ? Object.fromEntries(types.map((type) => [type, (/** @type {string} */ value) => value])) : undefined;

/** @param {unknown} error */
function describe(error) {
  if (!(error instanceof Error)) return { message: String(error), props: {} };
  /** @type {Record<string, unknown>} */
  const props = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) props[key] = value;
  }
  if (error.name !== 'Error') props.name = error.name;
  return { message: error.message, props };
}

/** The connection a message names: an open transaction's, or the database's. */
function target(/** @type {number | undefined} */ tx) {
  if (tx === undefined) return pglite;
  const open = transactions.get(tx);
  if (!open) throw new Error(`Transaction ${tx} is not open`);
  return open.tx;
}

/** Opens a transaction; answers its number once it holds the database. */
function begin() {
  const number = nextTransaction++;
  return new Promise((resolve, reject) => {
    /** @type {(outcome: {commit: boolean}) => void} */
    let end = () => {};
    const ended = new Promise((settle) => (end = settle));
    const finished = pglite.transaction(async (tx) => {
      transactions.set(number, { tx, end });
      resolve(number);
      const { commit } = /** @type {{commit: boolean}} */ (await ended);
      if (!commit) await tx.rollback();
    });
    finishing.set(number, finished);
    // A transaction that never started (the database closed) fails its `begin`; one that
    // started reports how it finished to its `end`.
    finished.catch((error) => {
      if (!transactions.has(number)) reject(error);
    });
    finished.finally(() => finishing.delete(number)).catch(() => {});
  });
}

/**
 * Statements prepared once on the connection and then only bound and executed, as the server's
 * PostgreSQL connections do (docs/decisions/183-prepared-statements.md, amended by 204): PGlite's
 * own `query` parses, analyses and plans every run and crosses into the engine six times for it
 * (parse, describe, bind, describe, execute, sync), which was most of this thread's time under
 * load. Here a statement is named on its first run (parse + describe, kept with its parameter
 * types and row description) and each run is one exchange (bind, execute, sync). The same bounds
 * as the server's: only statements with parameters, none longer than MAX_TEXT, at most
 * MAX_STATEMENTS names; everything else goes through PGlite's `query` as before.
 */
const MAX_TEXT = 8_000;
const MAX_STATEMENTS = 2_000;
/** @type {Map<string, {name: string, paramTypes: number[], rowDescription: unknown}>} */
const statements = new Map();
let statementCount = 0;

/** @param {Uint8Array[]} parts */
function concat(parts) {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** One exchange with the engine; a PostgreSQL error is thrown as PGlite's own `query` throws it, naming the statement. */
async function exchange(/** @type {Uint8Array[]} */ parts, /** @type {string} */ text) {
  try {
    return await pglite.execProtocolStream(concat(parts), { syncToFs: false });
  } catch (error) {
    if (error && typeof error === 'object') Object.assign(error, { query: text });
    throw error;
  }
}

/** PGlite's `query` for a statement with parameters, prepared; `inTransaction`: an open transaction holds the database. */
async function runPrepared(/** @type {string} */ text, /** @type {unknown[]} */ params, /** @type {any} */ options, /** @type {boolean} */ inTransaction, retried = false) {
  const { serialize } = protocol;
  let statement = statements.get(text);
  if (!statement) {
    const name = `hub_${++statementCount}`;
    const described = await exchange([serialize.parse({ name, text, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()], text);
    const parameters = /** @type {any} */ (described.find((m) => m.name === 'parameterDescription'));
    statement = { name, paramTypes: parameters?.dataTypeIDs ?? [], rowDescription: described.find((m) => m.name === 'rowDescription') };
    statements.set(text, statement);
  }
  // Each value as PGlite's `query` sends it: by the parameter's type, else as text.
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = pglite.serializers[/** @type {number} */ (statement.paramTypes[i])];
    return serializer ? serializer(value) : String(value);
  });
  /** @type {any[]} */
  let messages;
  try {
    messages = await exchange([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()], text);
  } catch (error) {
    // A table changed under a prepared statement ("cached plan must not change result type"):
    // it is prepared again, at once outside a transaction (the failed run changed nothing), on
    // its next run inside one (the error has ended the transaction).
    if (/** @type {any} */ (error)?.code !== '0A000') throw error;
    statements.delete(text);
    if (inTransaction || retried) throw error;
    return runPrepared(text, params, options, inTransaction, true);
  }
  if (!inTransaction) await pglite.syncToFs();
  const all = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
  return results.parseResults(/** @type {any} */ (all), pglite.parsers, options)[0];
}

const handlers = {
  async query(/** @type {any} */ message) {
    const parsers = asText(message.textTypes);
    const options = {
      ...(message.rowMode ? { rowMode: message.rowMode } : {}),
      ...(parsers ? { parsers } : {}),
    };
    const prepare =
      Array.isArray(message.params) && message.params.length > 0 && message.sql.length <= MAX_TEXT && (statements.has(message.sql) || statements.size < MAX_STATEMENTS);
    if (!prepare) return target(message.tx).query(message.sql, message.params, options);
    if (message.tx !== undefined) {
      target(message.tx); // the transaction is open: it holds the database; its statements take turns
      return pglite._runExclusiveQuery(() => runPrepared(message.sql, message.params, options, true));
    }
    // Outside a transaction: after any open one, as PGlite's `query` waits.
    return pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(() => runPrepared(message.sql, message.params, options, false)));
  },
  async exec(/** @type {any} */ message) {
    return target(message.tx).exec(message.sql);
  },
  async end(/** @type {any} */ message) {
    const open = transactions.get(message.tx);
    if (!open) throw new Error(`Transaction ${message.tx} is not open`);
    const finished = finishing.get(message.tx);
    open.end({ commit: message.commit });
    try {
      await finished;
    } finally {
      transactions.delete(message.tx);
    }
    return null;
  },
  async listen(/** @type {any} */ message) {
    if (listening.has(message.channel)) return null;
    const stop = await pglite.listen(message.channel, (payload) => port.postMessage({ notify: message.channel, payload }));
    listening.set(message.channel, stop);
    return null;
  },
  async unlisten(/** @type {any} */ message) {
    const stop = listening.get(message.channel);
    listening.delete(message.channel);
    await stop?.();
    return null;
  },
  async dump() {
    const file = await pglite.dumpDataDir('none');
    return file.arrayBuffer();
  },
  async close() {
    await pglite.close();
    return null;
  },
};

port.on('message', async (/** @type {any} */ message) => {
  /** @type {{tx?: number}} */
  const opened = {};
  try {
    const handler = /** @type {Record<string, (message: any) => Promise<unknown>>} */ (handlers)[message.op];
    if (!handler) throw new Error(`Unknown operation ${message.op}`);
    // Asked for before anything else is awaited: the transaction takes its turn for the
    // database in the order the messages came.
    if (message.begin) opened.tx = /** @type {number} */ (await begin());
    const result = await handler(opened.tx === undefined ? message : { ...message, tx: opened.tx });
    port.postMessage({ id: message.id, result, ...opened }, result instanceof ArrayBuffer ? [result] : []);
    if (message.op === 'close') port.close();
  } catch (error) {
    port.postMessage({ id: message.id, error: describe(error), ...opened });
  }
});

port.postMessage({ ready: true });
