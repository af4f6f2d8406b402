import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP server (the real protocol, port 0) that keeps what it receives, parsed, for
 * tests and benches to read. `refuse` makes it answer every sender with a temporary failure.
 */
export interface TestSmtpServer {
  url: string;
  received: ReceivedEmail[];
  refuse: boolean;
  waitFor(predicate: (email: ReceivedEmail) => boolean, timeoutMs?: number): Promise<ReceivedEmail>;
  close(): Promise<void>;
}

export interface ReceivedEmail {
  mail: ParsedMail;
  to: string[];
  receivedAt: number;
}

/** Matches an email sent to `address` (for `waitFor` and filters). */
export const sentTo = (address: string | null) => (email: ReceivedEmail) => email.to.includes(address ?? '');

/** A header as it was on the wire (mailparser folds List-* headers into one object). */
export function headerOf(email: ReceivedEmail, name: string): string {
  const line = email.mail.headerLines.find((h) => h.key === name)?.line ?? '';
  return line.slice(line.indexOf(':') + 1).replace(/\r?\n\s+/g, ' ').trim();
}

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedEmail[] = [];
  const waiters = new Set<() => void>();
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (state.refuse) {
        const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ mail, to: session.envelope.rcptTo.map((r) => r.address), receivedAt: Date.now() });
          for (const wake of waiters) wake();
          callback();
        })
        .catch(callback);
    },
  });
  // A sender killed mid-conversation (the crash tests) resets its connection: not this server's error.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    waitFor(predicate, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(predicate);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`No such email within ${timeoutMs} ms (received ${received.length})`));
        }, timeoutMs);
        if (!check()) waiters.add(wake);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
