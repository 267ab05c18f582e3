import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// 'source' resolves workspace packages to their TypeScript source (no prebuild). Only 'node' besides it:
// the 'import' condition would make pg's require('pg-pool') load pg-pool's ESM build and break pg.
const conditions = ['source', 'node'];

const kit = (file: string) => fileURLToPath(new URL(`./packages/service-kit/src/${file}`, import.meta.url));

/**
 * Every package's vitest config. `maskedScan`: every test database is scanned before it is dropped and
 * the run fails when a masked or encrypted column holds a masked value (issue 22; service-kit
 * src/masked-scan.ts).
 */
export function packageTestConfig(
  options: { setupFiles?: string[]; globalSetup?: string[]; coverage?: boolean; coverageThreshold?: number; maskedScan?: boolean } = {},
) {
  const scan = options.maskedScan ? { setup: [kit('vitest-masked-scan.setup.ts')], global: [kit('vitest-masked-scan.global.ts')] } : { setup: [], global: [] };
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: {
      environment: 'node',
      testTimeout: 30_000,
      hookTimeout: 60_000,
      setupFiles: [...scan.setup, ...(options.setupFiles ?? [])],
      globalSetup: [...scan.global, ...(options.globalSetup ?? [])],
      ...(options.coverage
        ? {
            coverage: {
              enabled: true,
              provider: 'v8' as const,
              include: ['src/**/*.ts'],
              exclude: ['src/**/*.test.ts'],
              reporter: ['text', 'text-summary'],
              ...(options.coverageThreshold ? { thresholds: { lines: options.coverageThreshold } } : {}),
            },
          }
        : {}),
    },
  });
}
