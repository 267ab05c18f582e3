import type { Generated } from 'kysely';
import type { DateString, DefaultedTimestamp, Json, Numeric, Timestamp } from './platform.js';

// Tables of migration V091 (what-if simulations, issue 26; owned by ledger-settlement).

export const SIMULATION_STATUSES = ['DRAFT', 'QUEUED', 'RUNNING', 'DONE', 'FAILED', 'ADOPTION_PENDING', 'ADOPTED'] as const;
export const SIMULATION_SCOPES = ['ALL', 'ORG', 'AGENTS'] as const;
export const SIMULATION_ACTIONS = ['ADD', 'REPLACE', 'END'] as const;

export type SimulationStatus = (typeof SIMULATION_STATUSES)[number];
export type SimulationScope = (typeof SIMULATION_SCOPES)[number];
export type SimulationAction = (typeof SIMULATION_ACTIONS)[number];

export interface SimulationTable {
  simulation_id: Generated<number>;
  name: string;
  base_month: string;
  scope_type: SimulationScope;
  scope_org_id: number | null;
  scope_agent_ids: Generated<number[]>;
  status: Generated<SimulationStatus>;
  processed: Generated<number>;
  total: Generated<number>;
  eta_seconds: number | null;
  error_message: string | null;
  approval_id: number | null;
  adopt_from: DateString | null;
  created_by: number | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export interface SimulationChangeTable {
  change_id: Generated<number>;
  simulation_id: number;
  seq: number;
  rule_table: string;
  action: SimulationAction;
  target_id: number | null;
  values: Json | null;
  end_date: DateString | null;
  label: string;
  amount_moved: Numeric | null;
}

export interface SimulationAgentResultTable {
  simulation_id: number;
  agent_id: number;
  org_id: number | null;
  gross_before: Numeric;
  gross_after: Numeric;
  net_before: Numeric;
  net_after: Numeric;
}

export interface SimulationSettleTable {
  simulation_id: number;
  agent_id: number;
  settle: unknown;
  explain: Json | null;
}

export interface SimulationTables {
  simulation: SimulationTable;
  simulation_change: SimulationChangeTable;
  simulation_agent_result: SimulationAgentResultTable;
  simulation_settle: SimulationSettleTable;
}
