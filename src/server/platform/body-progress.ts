import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** How fast a request body must keep arriving: at least `minBytes` in every `windowMs`. */
export interface BodyProgress {
  windowMs: number;
  minBytes: number;
}

/**
 * A body that trickles in holds a connection (and a parser, a file handle, a database claim) for
 * as long as its sender likes: one byte every 5 s kept sockets open for minutes. A total time
 * limit would cut the 2 GiB video that arrives at speed for half an hour, so the limit is on
 * progress instead (as Apache's mod_reqtimeout MinRate): 10 KiB in every 20 s, about 500 bytes a
 * second, far below any real uplink and far above a trickle. A sender that stalls for a whole
 * window is cut too; a resumable upload continues from what arrived (decision 147).
 */
export const BODY_PROGRESS: BodyProgress = { windowMs: 20_000, minBytes: 10 * 1024 };

/** Watches the body of every request from the moment its headers are in. */
export function registerBodyProgress(app: FastifyInstance, progress: BodyProgress = BODY_PROGRESS): void {
  // A callback hook, not an async one: it runs on every request (issue 16).
  app.addHook('onRequest', (request, _reply, done) => {
    watchBody(request.raw, progress);
    done();
  });
}

/**
 * Closes the connection when a window passes with less than `minBytes` read from it while the
 * body is still incomplete. Bytes already read but not yet consumed mean the server is the slow
 * one (a store or the database holding the reader back), never the client: those windows count
 * for nothing. Requests without a body (no Content-Length, no Transfer-Encoding) are not watched.
 */
function watchBody(request: IncomingMessage, { windowMs, minBytes }: BodyProgress): void {
  const length = request.headers['content-length'];
  const hasBody = request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  const socket = request.socket as IncomingMessage['socket'] | undefined;
  // A socket that counts no bytes (an injected request has none) cannot be watched.
  if (!hasBody || request.complete || typeof socket?.bytesRead !== 'number') return;
  let seen = socket.bytesRead;
  const stop = () => clearInterval(timer);
  const timer = setInterval(() => {
    if (request.complete || request.destroyed || socket.destroyed) {
      stop();
      return;
    }
    const arrived = socket.bytesRead - seen;
    seen = socket.bytesRead;
    if (arrived < minBytes && request.readableLength === 0) {
      stop();
      socket.destroy();
    }
  }, windowMs);
  timer.unref();
  request.once('close', stop);
}
