import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@shared': dir('./src/shared'),
      '@client': dir('./src/client'),
      '@server': dir('./src/server'),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    globalSetup: ['./src/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Three workers on two cores, each with its own copy of the migrated template database: the
    // longest files mostly wait (a job's expiry after a kill -9, timeouts that must pass), and a
    // third worker keeps both cores busy meanwhile (decision 207).
    maxWorkers: 3,
    // A worker keeps its modules between test files instead of importing the server afresh for
    // each (about 4 s a file, 104 files): the suite took 5.3 minutes instead of 8.8 (decision 185).
    // Every test file builds its own app and database, and restores what it stubs.
    isolate: false,
  },
});
