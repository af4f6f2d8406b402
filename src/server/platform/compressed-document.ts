import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Text answers of this size or more are compressed (CONTRACT §15): @fastify/compress in app.ts and the pages here. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/** @fastify/compress's own choice for answers made per request: fast, and most of brotli's gain on text. */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 } };

/** brotli, else gzip, as `Accept-Encoding` allows (a `q=0` refuses one); undefined: as it is. */
export function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) accepted.set(name.trim(), q === undefined ? 1 : Number(q) || 0);
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return undefined;
}

/**
 * Sends a page made for this request (it carries the session, decision 144), compressed like
 * every other text answer. The not-found handler that serves pages is not a route, so
 * @fastify/compress, which hooks routes as they are added, never sees it.
 */
export function sendDocument(request: FastifyRequest, reply: FastifyReply, html: string): FastifyReply {
  const bytes = Buffer.from(html);
  reply.type('text/html; charset=utf-8');
  if (bytes.length < COMPRESS_THRESHOLD_BYTES) return reply.send(bytes);
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(bytes);
  reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? brotliCompressSync(bytes, BROTLI_OPTIONS) : gzipSync(bytes));
}
