import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// One file per runner process: parallel local runs (several people at once) must not stop each other's platform.
export const PID_FILE = fileURLToPath(new URL(`../test-results/platform-${process.pid}.pid`, import.meta.url));

/**
 * Starts test/platform/serve.ts in its own process (tsx, workspace sources) and waits for its
 * `PLATFORM {json}` line; the tests read it from WEB_E2E_PLATFORM.
 */
export default async function globalSetup(): Promise<void> {
  // A platform already running (WEB_E2E_PLATFORM set by hand) is reused: quicker reruns while writing tests.
  if (process.env.WEB_E2E_PLATFORM) {
    process.env.WEB_E2E_URL = (JSON.parse(process.env.WEB_E2E_PLATFORM) as { url: string }).url;
    return;
  }
  const serve = fileURLToPath(new URL('./platform/serve.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', serve], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  mkdirSync(dirname(PID_FILE), { recursive: true });
  writeFileSync(PID_FILE, String(child.pid));
  const line = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('the platform did not start within 5 minutes')), 300_000);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const found = buffer.split('\n').find((l) => l.startsWith('PLATFORM '));
      if (found) {
        clearTimeout(timer);
        resolve(found.slice('PLATFORM '.length));
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the platform exited with ${code} before it was ready`));
    });
  });
  child.stdout.resume();
  child.unref();
  const info = JSON.parse(line) as { url: string };
  process.env.WEB_E2E_PLATFORM = line;
  process.env.WEB_E2E_URL = info.url;
}
