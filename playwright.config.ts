import { defineConfig, devices } from '@playwright/test';
import { FRESH_DATABASE_DIR } from './tests/e2e/own-server';

/**
 * Browser journeys against the real server on a fresh embedded database, driven in Debian's
 * Chromium (never a downloaded browser). The server builds the client first if needed.
 */
const PORT = Number(process.env.E2E_PORT ?? 5100);
const baseURL = `http://localhost:${PORT}`;
export const E2E_ADMIN = { email: 'admin@example.com', password: 'admin-password-123' };

export default defineConfig({
  testDir: './tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // CI also lists, at the end, every journey that needed its retry (decision 199): a retry that
  // passes is a flaky journey to fix, not a green run to forget.
  reporter: process.env.CI ? [['list'], ['./tests/retried-reporter.ts']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    // A trace records a screencast of every page: on two cores that made the suite take about
    // 1.7 times as long (29 minutes in CI, 17.7 without). A journey that fails is retried (CI),
    // and its retry is traced.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's headless shell (package chromium-headless-shell, the same Blink without the
      // browser's window and GPU processes): the suite took 13.3 minutes with it, 17.5 with the
      // full browser, on two cores. The benches drive the full browser.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    // On copies of the migrated database (tests/e2e/prepare-data-dir.ts): one for this server, one
    // that each spec's own server copies.
    command: `rm -rf .data-e2e && node --import tsx tests/e2e/prepare-data-dir.ts .data-e2e/db ${FRESH_DATABASE_DIR} && node scripts/start.mjs`,
    url: `${baseURL}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: '.data-e2e',
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
    },
  },
});
