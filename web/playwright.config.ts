import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium against the real Go binary
 * (../bin/portfolio, built beforehand with
 * `go build -o bin/portfolio ./cmd/portfolio`) on a fresh demo database.
 *
 * Playwright starts the webServer BEFORE globalSetup runs, so the data
 * directory is made here, when the runner loads this file (workers inherit it
 * through the environment), and the webServer command seeds it right before
 * serving. global-teardown.ts removes it.
 */
const PORT = Number(process.env.PORTFOLIO_E2E_PORT ?? 18431);
/** Set PORTFOLIO_E2E_BASE_URL to test a server you started yourself (no webServer then). */
const EXTERNAL_URL = process.env.PORTFOLIO_E2E_BASE_URL;
const BASE_URL = EXTERNAL_URL ?? `http://127.0.0.1:${PORT}`;
process.env.PORTFOLIO_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'portfolio-e2e-'));
const DATA_DIR = process.env.PORTFOLIO_E2E_DATA_DIR;
const BINARY = process.env.PORTFOLIO_BINARY ?? '../bin/portfolio';
/**
 * PORTFOLIO_E2E_SCALE=1 runs only the @scale specs (100,000 points of sale,
 * seeded by `seed --scale`); by default they are left out.
 */
const SCALE = process.env.PORTFOLIO_E2E_SCALE === '1';
const SCALE_SEED = SCALE ? ` && ${BINARY} seed --data-dir "${DATA_DIR}" --scale 100000 --scale-group 1` : '';
/**
 * The test SMTP server (tools/mailcatcher, built to ../bin/mailcatcher): the
 * server delivers to it, the specs read what arrived from
 * PORTFOLIO_E2E_MAIL_URL/messages?to=<address>.
 */
const MAILCATCHER = process.env.PORTFOLIO_MAILCATCHER_BINARY ?? '../bin/mailcatcher';
const SMTP_PORT = PORT + 1;
const MAIL_HTTP_PORT = PORT + 2;
if (!EXTERNAL_URL) process.env.PORTFOLIO_E2E_MAIL_URL ??= `http://127.0.0.1:${MAIL_HTTP_PORT}`;
const MAIL_FLAGS = `--smtp-host 127.0.0.1 --smtp-port ${SMTP_PORT} --smtp-tls none --public-url ${BASE_URL}`;

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  timeout: SCALE ? 180_000 : 60_000,
  expect: { timeout: 10_000 },
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  ...(SCALE ? { grep: /@scale/ } : { grepInvert: /@scale/ }),
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    ...devices['Desktop Chrome'],
    baseURL: BASE_URL,
    locale: 'en-US',
    actionTimeout: 15_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: EXTERNAL_URL
    ? undefined
    : [
        {
          command: `exec ${MAILCATCHER} -smtp 127.0.0.1:${SMTP_PORT} -http 127.0.0.1:${MAIL_HTTP_PORT}`,
          url: `http://127.0.0.1:${MAIL_HTTP_PORT}/healthz`,
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore',
          stderr: 'ignore',
        },
        {
          command: `${BINARY} seed --demo --data-dir "${DATA_DIR}"${SCALE_SEED} && exec ${BINARY} serve --addr 127.0.0.1:${PORT} --data-dir "${DATA_DIR}" --access-token-ttl 8s --log-level warn ${MAIL_FLAGS}`,
          url: `${BASE_URL}/readyz`,
          reuseExistingServer: false,
          timeout: SCALE ? 300_000 : 120_000,
          stdout: 'ignore',
          stderr: 'pipe',
        },
      ],
});
