import { defineConfig } from 'vitest/config';

// 'source' resolves workspace packages to their TypeScript source (no prebuild). Only 'node' besides it:
// the 'import' condition would make pg's require('pg-pool') load pg-pool's ESM build and break pg.
const conditions = ['source', 'node'];

/** Every package's vitest config. */
export function packageTestConfig(
  options: { setupFiles?: string[]; globalSetup?: string[]; coverage?: boolean; coverageThreshold?: number } = {},
) {
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: {
      environment: 'node',
      testTimeout: 30_000,
      hookTimeout: 60_000,
      setupFiles: options.setupFiles ?? [],
      globalSetup: options.globalSetup ?? [],
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
