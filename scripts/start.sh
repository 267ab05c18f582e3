#!/usr/bin/env bash
# The first command on a fresh machine: pnpm, dependencies, build, then the local launcher
# (embedded PostgreSQL unless DATABASE_URL is set, Redis, migrations, admin user, every service,
# its workers and the gateway on http://localhost:8080). Ctrl-C stops everything.
# Extra arguments go to the launcher, e.g. `bash scripts/start.sh --demo`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib/common.sh

ensure_node
ensure_pnpm
say "installing dependencies"
pnpm install --frozen-lockfile
say "building"
pnpm build
exec node infra/launcher/start.mjs "$@"
