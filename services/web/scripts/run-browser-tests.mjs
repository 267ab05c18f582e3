#!/usr/bin/env node
// `pnpm --filter @csp/web test`: the unit tests (vitest), then builds the app (the gateway serves
// services/web/dist) and runs the Playwright journeys against Debian's Chromium. Extra arguments go to
// `playwright test`; WEB_SKIP_UNIT=1 skips the unit tests.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules/.bin', name);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(chromium)) {
  console.error(`${chromium} is missing: install Debian's chromium and fonts-noto-cjk (scripts/test.sh does) or set CHROMIUM_PATH.`);
  process.exit(1);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!process.env.WEB_SKIP_UNIT) run(join(root, '../../node_modules/.bin/vitest'), ['run']);
run(bin('openapi-typescript'), ['openapi/gateway.json', '-o', 'src/api/schema.d.ts']);
run(bin('vite'), ['build', '--logLevel', 'warn']);
run(bin('playwright'), ['test', ...process.argv.slice(2)]);
