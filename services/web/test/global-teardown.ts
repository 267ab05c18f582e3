import { existsSync, readFileSync, rmSync } from 'node:fs';
import { PID_FILE } from './global-setup.js';

/** Stops the platform process (it closes the services and drops its database on SIGTERM). */
export default async function globalTeardown(): Promise<void> {
  if (!existsSync(PID_FILE)) return;
  const pid = Number(readFileSync(PID_FILE, 'utf8'));
  rmSync(PID_FILE);
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
