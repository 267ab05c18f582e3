/**
 * The platform the web bench drives: services/web/test/platform/serve.ts (every service, the step
 * workers and the gateway serving services/web/dist) on an existing book database, in a child process.
 * serve.ts settles the book's month when none is settled yet and prints `PLATFORM {json}` when ready.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startPlatform } from '../../services/web/test/platform/start.js';
import { ROOT } from './run-from-source.js';

export interface WebPlatform {
  url: string;
  users: { admin: { loginId: string; password: string } };
  month: string;
  runId: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Builds the web client with vite, as `pnpm build` does after its checks: into services/web/dist, or into
 * `outDir` (the bench's own copy, served through WEB_DIST_DIR, while browser tests serve dist).
 */
export async function buildWebClient(outDir?: string): Promise<void> {
  const args = ['exec', 'vite', 'build', '--logLevel', 'warn', ...(outDir ? ['--outDir', outDir, '--emptyOutDir'] : [])];
  await new Promise<void>((resolve, reject) => {
    const child = spawn('pnpm', args, { cwd: join(ROOT, 'services/web'), stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`))));
  });
}

export async function startWebPlatform(options: { databaseUrl: string; month: string; log: (m: string) => void }): Promise<WebPlatform> {
  // settling the month of a 1M-contract book on a loaded machine takes minutes (serve.ts allows 30)
  const { child, line } = await startPlatform({
    env: {
      ...process.env,
      WEB_E2E_DATABASE_URL: options.databaseUrl,
      WEB_E2E_BOOK_MONTH: options.month,
      TEST_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    },
    timeoutMs: 2_400_000,
  });
  const info = JSON.parse(line) as Omit<WebPlatform, 'child' | 'stop'>;
  options.log(`platform at ${info.url}, month ${info.month} (settle run ${info.runId || 'done before'})`);
  return {
    ...info,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
