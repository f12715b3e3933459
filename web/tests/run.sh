#!/usr/bin/env bash
# The web client's checks: type check (tsc --checkJs) and the Playwright tests in Debian's
# Chromium against the real server, which this script builds. Called by .ci/run.
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"

if [ ! -x /usr/bin/chromium ]; then
  apt-get update
  apt-get install -y chromium
fi

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
npm ci --no-audit --no-fund
npx tsc -p .

# The server in release: odds walk thousands of dice sequences, far too slow unoptimised.
if [ -z "${VOLLEY_BIN:-}" ]; then
  (cd "$root" && cargo build --release -p volley)
  target="$(cd "$root" && cargo metadata --no-deps --format-version 1 | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')"
  export VOLLEY_BIN="$target/release/volley"
fi
# A fresh database for the test server, removed afterwards.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export VOLLEY_TEST_DB="$scratch/volley.db"
npx playwright test
