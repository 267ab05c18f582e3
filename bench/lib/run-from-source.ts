import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: every bench and every process it starts runs from there. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Node options under which workspace packages resolve to their TypeScript sources (like the tests). */
export const SOURCE_NODE_ARGS = ['--conditions=source', '--import', 'tsx'];

/**
 * Runs `main` in a process where workspace packages resolve to their sources: when this one was
 * started without the `source` condition (`pnpm exec tsx bench/<file>.ts`), the bench file re-runs
 * itself with SOURCE_NODE_ARGS (and `nodeArgs`) and exits with its code. A bench therefore loads
 * anything that reaches a workspace package by dynamic import inside `main`, never statically.
 */
export async function runFromSource(
  benchUrl: string,
  main: () => Promise<void>,
  options: { nodeArgs?: string[] } = {},
): Promise<void> {
  if (process.execArgv.some((a) => a.includes('conditions=source'))) return main();
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), ...SOURCE_NODE_ARGS, fileURLToPath(benchUrl)],
    { cwd: ROOT, stdio: 'inherit' },
  );
  child.on('exit', (code) => process.exit(code ?? 1));
}
