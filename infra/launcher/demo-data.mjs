#!/usr/bin/env node
// `pnpm demo-data -- --agents N --contracts M --seed S [--today YYYY-MM-DD] [--database-url URL] [--force]`
// and the launcher's `--demo` hook (no arguments: defaults, DATABASE_URL from the environment).
// The generator lives in packages/demo-data/src (TypeScript): run through tsx when it is
// installed (development), else the built packages/demo-data/dist/cli.js.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE = join(ROOT, 'packages/demo-data/src/cli.ts');
const BUILT = join(ROOT, 'packages/demo-data/dist/cli.js');
const args = process.argv.slice(2);

if (existsSync(join(ROOT, 'node_modules/tsx')) && existsSync(SOURCE)) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SOURCE, ...args], {
    cwd: ROOT,
    stdio: 'inherit',
    env: process.env,
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else if (existsSync(BUILT)) {
  const { runDemoDataCli } = await import(pathToFileURL(BUILT).href);
  process.exitCode = await runDemoDataCli(args);
} else {
  console.error('demo-data: neither tsx nor packages/demo-data/dist is available (run `pnpm build`)');
  process.exit(1);
}
