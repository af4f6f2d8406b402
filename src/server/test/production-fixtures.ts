import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { pngBytes, wavBytes } from './file-fixtures';
import { TEST_ORIGIN } from './helpers';

/** An upload made through the real flow (upload URL, PUT of the bytes, the deliverable check): its object path. */
export async function uploadDeliverable(app: FastifyInstance, cookie: string, bytes: Buffer = pngBytes(), fileName = 'cover.png') {
  const issued = await app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie, origin: TEST_ORIGIN } });
  expect(issued.statusCode).toBe(200);
  const url = new URL(issued.json().uploadURL);
  const put = await app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    headers: { cookie, 'content-type': 'application/octet-stream', origin: TEST_ORIGIN },
    payload: bytes,
  });
  expect(put.statusCode).toBe(200);
  const checked = await app.inject({
    method: 'PUT',
    url: '/api/admin/deliverable-files',
    headers: { cookie, origin: TEST_ORIGIN },
    payload: { deliverableFileURL: url.toString(), fileName },
  });
  return checked;
}

export async function deliverableObjectPath(app: FastifyInstance, cookie: string, kind: 'image' | 'audio' = 'image') {
  const res = await uploadDeliverable(app, cookie, kind === 'image' ? pngBytes() : wavBytes(), kind === 'image' ? 'cover.png' : 'stem.wav');
  expect(res.statusCode).toBe(200);
  return res.json().objectPath as string;
}
