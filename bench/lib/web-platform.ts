/**
 * The platform the web bench drives: services/web/test/platform/serve.ts (every service, the step
 * workers and the gateway serving services/web/dist) on an existing book database, in a child process.
 * serve.ts settles the book's month when none is settled yet and prints `PLATFORM {json}` when ready.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, SOURCE_NODE_ARGS } from './run-from-source.js';

export interface WebPlatform {
  url: string;
  users: { admin: { loginId: string; password: string } };
  month: string;
  runId: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Builds the web client the gateway serves (services/web/dist) with vite, as `pnpm build` does after its checks. */
export async function buildWebClient(): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn('pnpm', ['exec', 'vite', 'build', '--logLevel', 'warn'], { cwd: join(ROOT, 'services/web'), stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`))));
  });
}

export async function startWebPlatform(options: { databaseUrl: string; month: string; log: (m: string) => void }): Promise<WebPlatform> {
  const child = spawn(process.execPath, [...SOURCE_NODE_ARGS, 'test/platform/serve.ts'], {
    cwd: join(ROOT, 'services/web'),
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      WEB_E2E_DATABASE_URL: options.databaseUrl,
      WEB_E2E_BOOK_MONTH: options.month,
      TEST_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    },
  });
  const line = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    // settling the month of a 1M-contract book on a loaded machine takes minutes (serve.ts allows 30)
    const timer = setTimeout(() => reject(new Error('the platform did not start within 40 minutes')), 2_400_000);
    child.stdout!.on('data', (chunk: Buffer) => {
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
  child.stdout!.resume();
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
