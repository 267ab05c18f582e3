import { packageTestConfig } from '../../vitest.shared.js';

export default packageTestConfig({ coverage: true, coverageThreshold: 100 });
