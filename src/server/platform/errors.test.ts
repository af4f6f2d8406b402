import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ERRORS, ERROR_CODES, errorText } from '@shared/errors';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../test/helpers';
import { apiError } from './errors';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('apiError', () => {
  it('takes its status from the code and its message from the code unless given', () => {
    const fixed = apiError('submission_not_found');
    expect(fixed.statusCode).toBe(404);
    expect(fixed.message).toBe('Submission not found');
    const own = apiError('file_too_large', 'Too big');
    expect(own.statusCode).toBe(413);
    expect(own.message).toBe('Too big');
  });

  it('has one status per code, all of them 4xx or 5xx', () => {
    for (const code of ERROR_CODES) expect(API_ERRORS[code].status).toBeGreaterThanOrEqual(400);
    expect(errorText('unauthorized')).toBe('Unauthorized');
  });
});

describe('every error body is {message, code}', () => {
  it('for an unknown route', async () => {
    const res = await t.app.inject({ url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Route /api/nothing-here not found', code: 'route_not_found' });
  });

  it('for a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
      payload: '{not json',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: errorText('invalid_json'), code: 'invalid_json' });
  });

  it('for a validation failure, with the fields', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { origin: TEST_ORIGIN }, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'email' }, { path: 'password' }] });
  });
});
