/**
 * `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) one after
 * another and prints their figures. Each module's default export is `async () => void`.
 * Benchmarks talk to servers on this machine only and stop by themselves. The run starts by
 * measuring this machine's yardstick (bench/support/yardstick.ts). A bench that throws is
 * reported (in the table too) and the run goes on to the next: one broken bench must not leave
 * the others unmeasured. The run then exits 1.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { printFigures, recordFigure } from './support/figures';
import { describeYardstick, yardstick } from './support/yardstick';

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();

// Measured before any bench loads the machine, and printed again above the figures (issue 50, part 5).
console.log(describeYardstick(await yardstick()));
for (const file of files) {
  const name = file.replace('.bench.ts', '');
  console.log(`\n=== ${name} ===`);
  try {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: () => Promise<void> };
    await mod.default();
  } catch (error) {
    console.error(error);
    recordFigure(`${name}: the bench ran to its end`, `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 120), 'ran', false);
    process.exitCode = 1;
  }
}
printFigures();
// A bench that failed its budget set exitCode; the others still ran.
process.exit(process.exitCode ?? 0);
