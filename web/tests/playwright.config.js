// Playwright runs the browser tests in Debian's Chromium against the real Volley server.
// VOLLEY_BIN: a built `volley` binary (run.sh builds one); otherwise `cargo run` builds it.
import { defineConfig } from "@playwright/test";
import os from "node:os";
import path from "node:path";

// The config is read again in each worker: the runner picks the port and database once and
// the workers inherit them through the environment.
process.env.VOLLEY_PORT ??= String(18_000 + (process.pid % 2_000));
process.env.VOLLEY_TEST_DB ??= path.join(os.tmpdir(), `volley-web-tests-${process.pid}-${Date.now()}.db`);
const port = Number(process.env.VOLLEY_PORT);
const db = process.env.VOLLEY_TEST_DB;
const bin = process.env.VOLLEY_BIN;
// Every test creates its games from the one loopback client: room for all of them.
const serve = `serve --addr 127.0.0.1:${port} --db ${db} --games-per-hour 100000`;

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.js",
  outputDir: "test-results",
  timeout: 180_000,
  expect: { timeout: 20_000 },
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "retain-on-failure",
  },
  webServer: {
    command: bin ? `"${bin}" ${serve}` : `cargo run -q -p volley -- ${serve}`,
    cwd: path.resolve(import.meta.dirname, "../.."),
    url: `http://127.0.0.1:${port}/api/scenarios`,
    timeout: 1_200_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});
