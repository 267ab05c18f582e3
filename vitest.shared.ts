import { defineConfig } from 'vitest/config';

/** Every package's vitest config: resolve workspace packages to their TypeScript source (no prebuild). */
export function packageTestConfig(options: { setupFiles?: string[]; globalSetup?: string[]; coverage?: boolean } = {}) {
  return defineConfig({
    resolve: { conditions: ['source', 'module', 'node', 'import', 'default'] },
    ssr: { resolve: { conditions: ['source', 'module', 'node', 'import', 'default'] } },
    test: {
      environment: 'node',
      testTimeout: 30_000,
      hookTimeout: 60_000,
      setupFiles: options.setupFiles ?? [],
      globalSetup: options.globalSetup ?? [],
      coverage: options.coverage
        ? { enabled: true, provider: 'v8', include: ['src/**/*.ts'], reporter: ['text', 'text-summary'] }
        : undefined,
    },
  });
}
