import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Starts serve.ts in its own process (workspace sources through tsx, cwd services/web) and waits for
 * its `PLATFORM {json}` line: the browser tests' global set-up and the web bench.
 */
export async function startPlatform(options: {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  onSpawn?: (child: ChildProcess) => void;
}): Promise<{ child: ChildProcess; line: string }> {
  const serve = fileURLToPath(new URL('./serve.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', serve], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
    env: options.env,
  });
  options.onSpawn?.(child);
  const line = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const minutes = Math.round(options.timeoutMs / 60_000);
    const timer = setTimeout(() => reject(new Error(`the platform did not start within ${minutes} minutes`)), options.timeoutMs);
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
  return { child, line };
}
