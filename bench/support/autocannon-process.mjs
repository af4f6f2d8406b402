// @ts-check
/**
 * autocannon in a process of its own (bench/support/http-load.ts): its argument is
 * `{url, connections, duration, headers}` as JSON; it prints `{rps, p99, failed}` as JSON. Plain
 * JavaScript, so it starts without the TypeScript loader.
 */
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2] ?? '{}');
const result = await autocannon(options);
process.stdout.write(JSON.stringify({ rps: result.requests.average, p99: result.latency.p99, failed: result.non2xx + result.errors }));
