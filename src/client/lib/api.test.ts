import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, busyRetryDelayMs, defaultQueryFn, errorCodeOf, errorMessage, isUnauthorizedError } from './api';

function stubFetch(status: number, body: string, statusText = '') {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => new Response(body || null, { status, statusText }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('turns a non-OK response into "{status}: {body text}" (SPEC §8) and exposes the server message', async () => {
    stubFetch(401, '{"message":"Invalid email or password"}', 'Unauthorized');
    const error = await apiRequest('POST', '/api/login', { email: 'a@b.co', password: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe('401: {"message":"Invalid email or password"}');
    expect(errorMessage(error)).toBe('Invalid email or password');
  });

  it('falls back to the status text when the body is empty', async () => {
    stubFetch(503, '', 'Service Unavailable');
    const error = await apiRequest('GET', '/api/x').catch((e: unknown) => e);
    expect((error as Error).message).toBe('503: Service Unavailable');
    expect(errorMessage(error)).toBe('Service Unavailable');
  });

  it('sends JSON with credentials and parses the JSON answer', async () => {
    const fetchMock = stubFetch(200, '{"id":"1"}');
    await expect(apiRequest('POST', '/api/register', { a: 1 })).resolves.toEqual({ id: '1' });
    const init = fetchMock.mock.calls[0]?.[1] ?? {};
    expect(init.credentials).toBe('include');
    expect(init.body).toBe('{"a":1}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('keeps the Retry-After of a busy answer, so the caller can try again after that long (decision 203)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"message":"The server is busy.","code":"server_busy"}', { status: 503, headers: { 'Retry-After': '7' } })));
    const error = await apiRequest('POST', '/api/login', {}).catch((e: unknown) => e);
    expect((error as ApiError).retryAfterSeconds).toBe(7);
    expect(busyRetryDelayMs(error)).toBe(7000);
    expect(busyRetryDelayMs(new ApiError(503, 'Service Unavailable', ''))).toBeNull();
    expect(busyRetryDelayMs(new ApiError(429, 'Too Many Requests', '', '7'))).toBeNull();
    expect(new ApiError(503, '', '', 'Wed, 21 Oct 2015 07:28:00 GMT').retryAfterSeconds).toBeNull();
  });

  it('resolves to undefined for 204', async () => {
    stubFetch(204, '');
    await expect(apiRequest('DELETE', '/api/submissions/1')).resolves.toBeUndefined();
  });
});

describe('defaultQueryFn', () => {
  it('GETs the key segments joined by slashes', async () => {
    const fetchMock = stubFetch(200, '[]');
    const signal = new AbortController().signal;
    await defaultQueryFn({ queryKey: ['/api/submissions', 'abc'], signal } as never);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/submissions/abc');
  });
});

describe('isUnauthorizedError', () => {
  it('follows SPEC §8: starts with 401 and ends with Unauthorized', () => {
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(true);
    expect(isUnauthorizedError(new Error('403: Unauthorized'))).toBe(false);
    expect(isUnauthorizedError(new Error('401: Invalid email or password'))).toBe(false);
  });

  it('recognises the JSON body the server sends', () => {
    expect(isUnauthorizedError(new ApiError(401, 'Unauthorized', '{"message":"Unauthorized","code":"unauthorized"}'))).toBe(true);
    expect(isUnauthorizedError(new ApiError(401, 'Unauthorized', '{"message":"Invalid email or password","code":"invalid_credentials"}'))).toBe(false);
  });
});

describe('errorCodeOf', () => {
  it('reads the code of the body, and ignores a code this build does not know', () => {
    expect(errorCodeOf(new ApiError(404, 'Not Found', '{"message":"Submission not found","code":"submission_not_found"}'))).toBe(
      'submission_not_found',
    );
    expect(errorCodeOf(new ApiError(404, 'Not Found', '{"message":"x","code":"from_the_future"}'))).toBeNull();
    expect(errorCodeOf(new ApiError(502, 'Bad Gateway', '<html>proxy</html>'))).toBeNull();
    expect(errorCodeOf(new Error('404: x'))).toBeNull();
  });
});
