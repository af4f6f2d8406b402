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
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

if (!parentPort) throw new Error('pglite-thread.mjs runs as a worker thread');
const port = parentPort;

/** @type {PGlite} */
let pglite;
try {
  pglite = await PGlite.create(workerData.dir, { extensions: { pg_trgm } });
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

const handlers = {
  async query(/** @type {any} */ message) {
    const parsers = asText(message.textTypes);
    return target(message.tx).query(message.sql, message.params, {
      ...(message.rowMode ? { rowMode: message.rowMode } : {}),
      ...(parsers ? { parsers } : {}),
    });
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
