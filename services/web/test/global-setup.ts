import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPlatform } from './platform/start.js';

// One file per runner process: parallel local runs (several people at once) must not stop each other's platform.
export const PID_FILE = fileURLToPath(new URL(`../test-results/platform-${process.pid}.pid`, import.meta.url));

/**
 * Starts test/platform/serve.ts in its own process (platform/start.ts) and waits for its
 * `PLATFORM {json}` line; the tests read it from WEB_E2E_PLATFORM.
 */
export default async function globalSetup(): Promise<void> {
  // A platform already running (WEB_E2E_PLATFORM set by hand) is reused: quicker reruns while writing tests.
  if (process.env.WEB_E2E_PLATFORM) {
    process.env.WEB_E2E_URL = (JSON.parse(process.env.WEB_E2E_PLATFORM) as { url: string }).url;
    return;
  }
  const { child, line } = await startPlatform({
    env: process.env,
    timeoutMs: 300_000,
    onSpawn: (started) => {
      mkdirSync(dirname(PID_FILE), { recursive: true });
      writeFileSync(PID_FILE, String(started.pid));
    },
  });
  child.unref();
  const info = JSON.parse(line) as { url: string };
  process.env.WEB_E2E_PLATFORM = line;
  process.env.WEB_E2E_URL = info.url;
}
