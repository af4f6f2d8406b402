import type { FastifyReply } from 'fastify';

/**
 * Aborted when the client goes away (its connection closes) before this request's response was
 * sent: costly work for it (a password hash) is then skipped rather than done for no one. Under
 * load a client that timed out and retried would otherwise have its abandoned requests worked
 * through first, and the queue would only grow (docs/decisions/054-password-hashing-under-load.md).
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  if (response.destroyed || response.socket?.destroyed) controller.abort();
  // 'close' comes once: after the response was sent, or when the connection closed first.
  else response.once('close', () => !response.writableFinished && controller.abort());
  return controller.signal;
}
