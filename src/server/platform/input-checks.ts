import type { FastifyInstance } from 'fastify';
import { errorText } from '@shared/errors';
import { apiError } from './errors';
import { isStorableNumber, UNSTORABLE_NUMBER_MESSAGE } from './storable-number';

export const UNSAFE_TEXT_MESSAGE = errorText('unsafe_text');

/**
 * PostgreSQL cannot store NUL (U+0000) in text, and an unpaired surrogate is not Unicode at all:
 * either one would reach the database as an error (CONTRACT §9). Refused here, once, for every
 * route: the parsed JSON body, the query string and the path parameters, before any handler runs.
 * Raw bodies (file bytes, Stripe's signed payload) are not text and pass untouched.
 */
export function registerInputChecks(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request (issue 16).
  app.addHook('preValidation', (request, _reply, done) => {
    if (holdsUnsafeText(request.params) || holdsUnsafeText(request.query) || holdsUnsafeText(request.body)) {
      done(apiError('unsafe_text'));
      return;
    }
    const number = unstorableNumberIn(request.body);
    if (number) done(apiError('validation_failed', UNSTORABLE_NUMBER_MESSAGE, [{ path: number.path, message: UNSTORABLE_NUMBER_MESSAGE }]));
    else done();
  });
}

/** The first number of a parsed JSON body no column could store, with its path; undefined when all can. */
function unstorableNumberIn(body: unknown): { path: string } | undefined {
  const pending: { value: unknown; path: string }[] = [{ value: body, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'number') {
      if (!isStorableNumber(value)) return { path };
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => pending.push({ value: item, path: path ? `${path}.${i}` : String(i) }));
    } else if (value !== null && typeof value === 'object' && isPlainData(value)) {
      for (const [key, item] of Object.entries(value)) pending.push({ value: item, path: path ? `${path}.${key}` : key });
    }
  }
  return undefined;
}

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isUnsafeString = (text: string) => UNSAFE_TEXT.test(text);

/** Walks JSON-shaped values (without recursion: a deeply nested body cannot exhaust the stack). */
function holdsUnsafeText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (isUnsafeString(next)) return true;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object' && isPlainData(next)) {
      for (const [key, item] of Object.entries(next)) {
        if (isUnsafeString(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/**
 * Parsed JSON, query strings and path parameters (the router's and the query parser's objects
 * have prototypes of their own), not the raw bodies of file uploads and webhooks.
 */
function isPlainData(value: object): boolean {
  return !(ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === 'function');
}
