import type { FastifyRequest } from 'fastify';

/**
 * What the server's log may hold of an error and of a request (CONTRACT §9): an error's kind,
 * message, code and stack — never what it carried besides (a failed query's parameters, which
 * can hold a password hash or a session id; PostgreSQL's `detail`, which quotes the row) — and a
 * request's method and path, never its query string (upload and reset tokens travel there),
 * headers or body.
 */
interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: string;
  statusCode?: number;
  cause?: LoggedError;
}

const MAX_CAUSE_DEPTH = 5;

function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: 'non-Error value thrown', stack: '' };
  const logged: LoggedError = {
    type: error.constructor?.name ?? 'Error',
    message: withoutParameters(error.message),
    stack: withoutParameters(error.stack ?? ''),
  };
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof code === 'string') logged.code = code;
  if (typeof statusCode === 'number') logged.statusCode = statusCode;
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) logged.cause = serializeError(error.cause, depth + 1);
  return logged;
}

/**
 * Drizzle's query errors read "Failed query: <sql>\nparams: <values>": the SQL (placeholders
 * only) stays, the values go — up to the stack's first frame, since a value may span lines.
 */
function withoutParameters(text: string): string {
  const start = text.indexOf('\nparams: ');
  if (start === -1) return text;
  const frames = text.indexOf('\n    at ', start);
  return text.slice(0, start) + '\nparams: [not logged]' + (frames === -1 ? '' : text.slice(frames));
}

function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.split('?')[0],
    remoteAddress: request.ip,
  };
}

export const logSerializers = { err: serializeError, error: serializeError, req: serializeRequest };
