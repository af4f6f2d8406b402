import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RememberedAnswer } from './user-reads';

/**
 * Answers with `answer`'s bytes and its weak ETag, or 304 with no body when the request's
 * If-None-Match already names it. The browser keeps such an answer (Cache-Control: private,
 * no-cache) and revalidates it, so an unchanged list costs neither its query nor its transfer.
 */
export function sendWithEtag(request: FastifyRequest, reply: FastifyReply, { body, etag }: RememberedAnswer): FastifyReply {
  reply.header('etag', etag);
  if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body);
}

/** If-None-Match is `*` or a list of tags; weak comparison, as RFC 9110 §13.1.2 asks for GET. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.slice(2);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return (t.startsWith('W/') ? t.slice(2) : t) === opaque;
  });
}
