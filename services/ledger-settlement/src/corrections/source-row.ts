import { sql } from 'kysely';
import type { Executor } from '../period-closes/month-guard.js';

/** Whose row and which month: the agent paid by it (an override's receiver) and its settle month. */
export interface SourceRow {
  agentId: number;
  settleMonth: string;
}

const AGENT_COLUMN: Record<string, string> = {
  settle_master: 'agent_id',
  recruit_ledger: 'agent_id',
  maintain_ledger: 'agent_id',
  exception_ledger: 'agent_id',
  override_settle: 'to_agent_id',
  chargeback: 'agent_id',
};

const ID_COLUMN: Record<string, string> = {
  settle_master: 'settle_id',
  recruit_ledger: 'ledger_id',
  maintain_ledger: 'ledger_id',
  exception_ledger: 'ledger_id',
  override_settle: 'os_id',
  chargeback: 'cb_id',
};

/** A settle or ledger row a correction or dispute points at; undefined when it does not exist. */
export async function sourceRowOf(db: Executor, table: string, id: number): Promise<SourceRow | undefined> {
  const agent = AGENT_COLUMN[table];
  const key = ID_COLUMN[table];
  if (!agent || !key) return undefined;
  const { rows } = await sql<{ agent_id: number; settle_month: string }>`
    SELECT ${sql.ref(agent)} AS agent_id, settle_month FROM ${sql.table(table)} WHERE ${sql.ref(key)} = ${id}`.execute(db);
  const row = rows[0];
  return row ? { agentId: Number(row.agent_id), settleMonth: row.settle_month } : undefined;
}
