import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API_ERRORS, type ApiErrorBody, type ErrorCode, type FieldError } from '@shared/errors';
import { isStorableNumber, UNSTORABLE_NUMBER_MESSAGE } from './storable-number';

/**
 * An error meant for the client: its code (src/shared/errors.ts) fixes the status, its message is
 * what a person reads (the code's fixed message when none is given). Throw it with `apiError`.
 */
export class HttpError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly errors?: FieldError[],
    /** Response headers that go with this error (Retry-After on a 429). */
    readonly headers?: Record<string, string>,
    /** What the body carries besides its message and code (rights_incomplete's `missing`). */
    readonly details?: Pick<ApiErrorBody, 'missing'>,
  ) {
    const entry: { status: number; message?: string } = API_ERRORS[code];
    super(message ?? entry.message ?? code);
    this.statusCode = entry.status;
  }
}

/**
 * The one way a route or domain function refuses a request:
 * `throw apiError('submission_not_found')`, or with a message of its own:
 * `throw apiError('file_too_large', rule.tooLarge)`.
 */
export function apiError(code: ErrorCode, message?: string, errors?: FieldError[]): HttpError {
  return new HttpError(code, message, errors);
}

/**
 * A 429 with `Retry-After` in whole seconds (at least 1) and a message saying how long to wait
 * (CONTRACT §9).
 */
export function tooManyRequests(
  retryAfterMs: number,
  code: 'rate_limited' | 'too_many_sign_in_attempts' = 'rate_limited',
  message?: string,
): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpError(code, message ?? tooManyRequestsMessage(seconds), undefined, { 'retry-after': String(seconds) });
}

/** A 416 whose Content-Range gives the object's size, so the client learns what it may ask for (RFC 9110 §15.5.17). */
export function rangeNotSatisfiable(size: number): HttpError {
  return new HttpError('range_not_satisfiable', undefined, undefined, { 'content-range': `bytes */${size}` });
}

/** A 503 with `Retry-After` in whole seconds (at least 1): the server sheds work it cannot do in time. */
export function serverBusy(retryAfterMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const message = `The server is busy. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  return new HttpError('server_busy', message, undefined, { 'retry-after': String(seconds) });
}

function tooManyRequestsMessage(seconds: number): string {
  if (seconds < 60) return `Too many requests. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** The body an error answers with; for the handlers that send before the error handler runs. */
export function errorBody(code: ErrorCode, message?: string): ApiErrorBody {
  const { message: text, code: c } = apiError(code, message);
  return { message: text, code: c };
}

/** The path of the first number of parsed input that no column could store. */
function unstorableNumberOf(value: unknown, path = ''): string | undefined {
  if (typeof value === 'number') return isStorableNumber(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unstorableNumberOf(item, path ? `${path}.${i}` : String(i));
      if (found !== undefined) return found;
    }
  } else if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const found = unstorableNumberOf(item, path ? `${path}.${key}` : key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Parses input with a shared zod schema; a failure is a 400 carrying SPEC's messages per field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) {
    // A number read from text (a query string coerced by the schema) gets the same check as the
    // JSON bodies' numbers in input-checks.ts: none reaches the database unless it can be stored.
    const unstorable = unstorableNumberOf(result.data);
    if (unstorable !== undefined) throw apiError('validation_failed', UNSTORABLE_NUMBER_MESSAGE, [{ path: unstorable, message: UNSTORABLE_NUMBER_MESSAGE }]);
    return result.data;
  }
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw apiError('validation_failed', errors[0]?.message ?? 'Invalid input', errors);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      const body: ApiErrorBody = { message: error.message, code: error.code };
      if (error.errors) body.errors = error.errors;
      if (error.details) Object.assign(body, error.details);
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send(body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported media type, rate limit.
      const known = FASTIFY_CODES[error.code];
      return reply.status(status).send(known ? errorBody(known) : errorBody(codeOfStatus(status), error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(errorBody('internal'));
  });
}

/** Fastify's own client errors that have a code (and fixed message) of ours. */
const FASTIFY_CODES: Record<string, 'invalid_json' | 'body_too_large' | 'unsupported_media_type'> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
};

/** Any other client error from a plugin (the rate limiter's 429, …): the generic code of its status. */
function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'body_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    default:
      return 'bad_request';
  }
}
