import type { PlatformTables } from './platform.js';

export * from './platform.js';

/**
 * The whole schema as Kysely sees it. Each business area keeps its tables in its own file
 * (platform.ts, master-data.ts, ...) and is merged here.
 */
export interface Database extends PlatformTables {}
