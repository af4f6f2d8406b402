import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';

/** Test support: real WebSocket clients against an app listening on loopback. */

export interface TestSocket {
  ws: WebSocket;
  /** Every JSON event received so far. */
  events: { type: string; [key: string]: unknown }[];
  /** Resolves with the first event (already received or to come) that matches. */
  waitFor<E extends { type: string }>(match: (event: E) => boolean, timeoutMs?: number): Promise<E>;
  close(): Promise<void>;
}

export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/ws`;
}

/** Opens a socket; rejects with the HTTP status when the upgrade is refused. */
export function openSocket(url: string, headers: Record<string, string>): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const events: TestSocket['events'] = [];
    const waiters = new Set<() => void>();
    ws.on('message', (data) => {
      events.push(JSON.parse(String(data)) as TestSocket['events'][number]);
      for (const check of [...waiters]) check();
    });
    ws.once('unexpected-response', (_request, response) => {
      reject(new UpgradeRefused(response.statusCode ?? 0));
      ws.terminate();
    });
    ws.once('error', (error) => reject(error));
    ws.once('open', () =>
      resolve({
        ws,
        events,
        waitFor<E extends { type: string }>(match: (event: E) => boolean, timeoutMs = 5000) {
          return new Promise<E>((done, fail) => {
            const check = () => {
              const found = (events as unknown as E[]).find(match);
              if (!found) return;
              waiters.delete(check);
              clearTimeout(timer);
              done(found);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`No matching event within ${timeoutMs} ms; received ${JSON.stringify(events)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        close: () =>
          new Promise<void>((done) => {
            if (ws.readyState === WebSocket.CLOSED) return done();
            ws.once('close', () => done());
            ws.close();
          }),
      }),
    );
  });
}

export class UpgradeRefused extends Error {
  constructor(readonly statusCode: number) {
    super(`Upgrade refused with ${statusCode}`);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
