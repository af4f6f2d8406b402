import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../test/kit';

const moduleUrl = new URL('./request-log.ts', import.meta.url).href;

/**
 * The server's own log (no stream given) goes to stdout in blocks (issue 37): a line must still
 * show up while the server is idle, and none may be lost when the process exits.
 */
describe('the log written to stdout', () => {
  it('shows a lone line within seconds, and writes what is gathered when the process exits', async () => {
    const script = `
      import Fastify from 'fastify';
      const { productLogger } = await import(${JSON.stringify(moduleUrl)});
      const app = Fastify({ logger: productLogger({ level: 'info' }) });
      app.log.info('first line, alone');
      process.stdin.once('data', () => {
        app.log.info('last line, then exit');
        process.exit(0);
      });
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

    await waitFor(() => out.includes('first line, alone'), { timeoutMs: 15_000, what: 'the first line' });
    expect(out).toContain('first line, alone');

    child.stdin.write('go\n');
    expect(await exited).toBe(0);
    expect(out).toContain('last line, then exit');
    expect(out.trim().split('\n').map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['first line, alone', 'last line, then exit']);
  }, 30_000);
});
