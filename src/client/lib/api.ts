import type { QueryFunction } from '@tanstack/react-query';
import { isErrorCode, type ErrorCode } from '@shared/error-codes';
import type { ApiErrorBody } from '@shared/errors';

/**
 * A non-OK response. Its message follows SPEC §8 exactly: `${status}: ${body text || statusText}`,
 * so code that inspects messages (the 401 rule) keeps working; `serverMessage` is what a person reads.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly bodyText: string;
  readonly body: ApiErrorBody | null;
  /** The server's reason (src/shared/errors.ts); code branches on this, never on status or text. */
  readonly code: ErrorCode | null;
  /** The seconds the server asked to wait before trying again (its Retry-After, in seconds); null without one. */
  readonly retryAfterSeconds: number | null;

  constructor(status: number, statusText: string, bodyText: string, retryAfter?: string | null) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.statusText = statusText;
    this.bodyText = bodyText;
    this.body = parseErrorBody(bodyText);
    // A code this build does not know (a newer server, a proxy's JSON) counts as none.
    this.code = isErrorCode(this.body?.code) ? this.body.code : null;
    // Only the delay-seconds form: the server never sends a date (platform/errors.ts).
    const seconds = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : NaN;
    this.retryAfterSeconds = Number.isFinite(seconds) ? seconds : null;
  }

  /** The server's `message` (CONTRACT §2) when the body is JSON, else the body text or status text. */
  get serverMessage(): string {
    return this.body?.message || this.bodyText || this.statusText;
  }
}

function parseErrorBody(text: string): ApiErrorBody | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as ApiErrorBody).message === 'string') {
      return parsed as ApiErrorBody;
    }
  } catch {
    // Not JSON (a proxy's HTML page, plain text): the text itself is the message.
  }
  return null;
}

async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  throw new ApiError(res.status, res.statusText, text, res.headers.get('retry-after'));
}

/** The server's reason for a failed request, or null (not an API error, or no code). */
export function errorCodeOf(error: unknown): ErrorCode | null {
  return error instanceof ApiError ? error.code : null;
}

/** The sentence to show a person for any error: the server's message, never raw JSON. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * How long to wait before trying again, in ms, when the server answered busy: 503 with Retry-After
 * (a sign-in whose password check would wait too long, decision 054); null for any other error.
 * Such a request was not done at all, so it is safe to send again (decision 203).
 */
export function busyRetryDelayMs(error: unknown): number | null {
  return error instanceof ApiError && error.status === 503 && error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : null;
}

const endsUnauthorized = (message: string) => message.startsWith('401') && message.endsWith('Unauthorized');

/**
 * The signed-out rule (docs/product.md#client-errors): an API error says so by its code
 * `unauthorized`; any other error by a message that starts with "401" and ends with "Unauthorized".
 */
export function isUnauthorizedError(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === 'unauthorized';
  return error instanceof Error && endsUnauthorized(error.message);
}

async function parseJson<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * The one fetch wrapper for the API: credentials included, JSON in and out (SPEC §7).
 * Resolves to the parsed body (undefined for 204) and throws an ApiError for any non-OK response.
 */
export async function apiRequest<T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  data?: unknown,
  init?: Pick<RequestInit, 'signal' | 'cache' | 'keepalive'>,
): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: data === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
    ...init,
  });
  await throwIfResNotOk(res);
  return parseJson<T>(res);
}

/** The generic loader: GET to the query key's segments joined by '/' (SPEC §7). */
export const defaultQueryFn: QueryFunction = ({ queryKey, signal }) =>
  apiRequest('GET', queryKey.map(String).join('/'), undefined, { signal });
