import { packageTestConfig } from '../../vitest.shared.js';

const config = packageTestConfig();
// vitest 3 rejects an explicit `coverage: undefined` (reads `.reporter` of it); leave the key out instead.
if (config.test && config.test.coverage === undefined) delete config.test.coverage;

export default config;
