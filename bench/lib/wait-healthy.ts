import type { ChildProcess } from 'node:child_process';

/**
 * Waits until `url` (a service's `/api/health`) answers 2xx, or anything at all with `anyAnswer` (a gateway is
 * DEGRADED while services behind it are missing). Fails when `child` exits first or after `timeoutMs`.
 */
export async function waitHealthy(
  child: ChildProcess | undefined,
  url: string,
  options: { anyAnswer?: boolean; timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before ${url} answered`);
    try {
      const res = await fetch(url);
      if (res.ok || options.anyAnswer) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
