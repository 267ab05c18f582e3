#!/usr/bin/env bash
# The whole test suite: dependencies, PostgreSQL and Redis reachable (started locally when they are
# installed but stopped), then typecheck and every package's tests (turbo, one package at a time).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/common.sh

ensure_node
ensure_pnpm
say "installing dependencies"
pnpm install --frozen-lockfile

# --- web client browser tests (services/web): Debian's Chromium and a Korean font ---
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
  say "installing chromium and fonts-noto-cjk for the browser tests"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
fi
# --- end web client ---

# The same defaults the test helpers use (packages/db/src/testing.ts, service-kit testing).
DB_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
REDIS_URL_FOR_TESTS="${TEST_REDIS_URL:-redis://127.0.0.1:6379}"

read -r PG_HOST PG_PORT < <(url_host_port "$DB_URL" 5432)
if ! tcp_open "$PG_HOST" "$PG_PORT"; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    say "PostgreSQL does not answer at ${PG_HOST}:${PG_PORT}; starting the local cluster"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
    for _ in $(seq 1 30); do tcp_open "$PG_HOST" "$PG_PORT" && break; sleep 1; done
  fi
  tcp_open "$PG_HOST" "$PG_PORT" || die "PostgreSQL does not answer at ${PG_HOST}:${PG_PORT}: start one or set TEST_DATABASE_URL."
fi

read -r REDIS_HOST REDIS_PORT < <(url_host_port "$REDIS_URL_FOR_TESTS" 6379)
if ! tcp_open "$REDIS_HOST" "$REDIS_PORT"; then
  if command -v redis-server >/dev/null 2>&1; then
    say "Redis does not answer at ${REDIS_HOST}:${REDIS_PORT}; starting redis-server"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no || true
    for _ in $(seq 1 30); do tcp_open "$REDIS_HOST" "$REDIS_PORT" && break; sleep 0.5; done
  fi
  tcp_open "$REDIS_HOST" "$REDIS_PORT" || die "Redis does not answer at ${REDIS_HOST}:${REDIS_PORT}: start one or set TEST_REDIS_URL."
fi

say "typecheck"
pnpm typecheck
say "tests"
log="$(mktemp)"
set +e
pnpm test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# One closing line for the whole monorepo, summed over every package's vitest summary.
node -e '
  const text = require("fs").readFileSync(process.argv[1], "utf8").replace(/\x1b\[[0-9;]*m/g, "");
  const sum = { passed: 0, failed: 0, skipped: 0 };
  for (const line of text.split("\n")) {
    const m = /\bTests\s+(.+)\(\d+\)\s*$/.exec(line);
    if (!m) continue;
    for (const [, n, kind] of m[1].matchAll(/(\d+) (passed|failed|skipped)/g)) sum[kind] += Number(n);
  }
  console.log(`${sum.passed} passed, ${sum.failed} failed` + (sum.skipped ? `, ${sum.skipped} skipped` : ""));
' "$log"
rm -f "$log"
exit "$status"
