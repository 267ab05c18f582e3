import type { AnalyticsTables } from './analytics.js';
import type { ApprovalTables } from './approvals.js';
import type { BatchTables } from './batch.js';
import type { CommissionLedgerTables } from './commission-ledgers.js';
import type { CommissionRuleTables } from './commission-rules.js';
import type { EventTables } from './events.js';
import type { IntakeTables } from './intake.js';
import type { LedgerTables } from './ledger.js';
import type { LifecycleTables } from './lifecycle.js';
import type { MasterPeopleTables } from './master-data.js';
import type { MasterRuleTables } from './master-rules.js';
import type { PaymentTaxTables } from './payment-tax.js';
import type { PlatformTables } from './platform.js';
import type { SimulationTables } from './simulations.js';

export * from './platform.js';
export * from './master-data.js';
export * from './master-rules.js';
export * from './batch.js';
export * from './ledger.js';
export * from './intake.js';
export * from './payment-tax.js';
export * from './analytics.js';
export * from './events.js';
export * from './approvals.js';
export * from './lifecycle.js';
export * from './commission-rules.js';
export * from './commission-ledgers.js';
export * from './simulations.js';

/**
 * The whole schema as Kysely sees it. Each business area keeps its tables in its own file
 * (platform.ts, master-data.ts, ...) and is merged here.
 */
export interface Database
  extends PlatformTables,
    MasterPeopleTables,
    MasterRuleTables,
    BatchTables,
    LedgerTables,
    IntakeTables,
    PaymentTaxTables,
    AnalyticsTables,
    EventTables,
    ApprovalTables,
    LifecycleTables,
    CommissionRuleTables,
    CommissionLedgerTables,
    SimulationTables {}
