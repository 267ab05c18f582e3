import { packageTestConfig } from '../../vitest.shared.js';

const config = packageTestConfig();
// vitest 3.2 fails on an explicit `coverage: undefined` (reads coverage.reporter); drop the key.
if (config.test && config.test.coverage === undefined) delete config.test.coverage;
// An `import` condition in the worker's node conditions makes pg load pg-pool's ESM build; keep only ours.
if (config.ssr?.resolve) config.ssr.resolve.conditions = ['source', 'node'];

export default config;
