import { defineConfig } from 'vitest/config';

// Unit tests of the pure modules (src, *.test.ts); the browser journeys are Playwright's (test/e2e).
export default defineConfig({
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
});
