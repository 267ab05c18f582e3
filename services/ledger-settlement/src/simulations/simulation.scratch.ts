import type { Db } from '@csp/db';
import { sql } from 'kysely';

/** Tables the ledger steps write: an empty copy each in the scratch schema (plus the month's inputs below). */
export const WRITTEN_TABLES = [
  'recruit_ledger',
  'maintain_ledger',
  'other_commission_ledger',
  'override_settle',
  'chargeback',
  'exception_ledger',
  'commission_master',
  'settle_master',
  'settle_hold',
  'retro_rule_scan',
] as const;

/** Effective-dated rule tables: copied whole into the scratch schema, then the proposed changes applied. */
export const RULE_TABLES = [
  'commission_rate',
  'payout_rule',
  'override_rule',
  'chargeback_rule',
  'collection_rule',
  'renewal_rule',
  'reinstatement_rule',
  'persistency_rule',
  'appointment_rule',
] as const;
export type RuleTableName = (typeof RULE_TABLES)[number];

export function scratchSchemaOf(simulationId: number): string {
  return `sim_${simulationId}`;
}

/**
 * Rows of the written tables the month's steps read but do not produce: manual and earlier-run exception rows of
 * the month, chargeback installments due from the month on (earlier lapses), commission-master adjustments,
 * the month's holds, the retro-scan bookkeeping. The month's ledgers, overrides and settle rows stay empty:
 * every agent in scope is computed, locked or not.
 */
const MONTH_INPUTS: Record<string, (month: string) => ReturnType<typeof sql>> = {
  exception_ledger: (m) => sql`settle_month = ${m}`,
  chargeback: (m) => sql`settle_month >= ${m}`,
  commission_master: (m) => sql`settle_month = ${m}`,
  settle_hold: (m) => sql`settle_month = ${m}`,
  retro_rule_scan: () => sql`true`,
};

/**
 * Creates schema sim_<id>: empty copies of the written tables (own sequences, so no real sequence moves), the
 * month's inputs, whole copies of the rule tables, and — for a scoped simulation — a `contract` view restricted
 * to the scope's agents, which the steps' unqualified `contract` then resolves to.
 */
export async function createScratch(
  db: Db,
  simulationId: number,
  month: string,
  scopeAgentIds: number[] | undefined,
): Promise<string> {
  const schema = scratchSchemaOf(simulationId);
  const s = sql.id(schema);
  await sql`DROP SCHEMA IF EXISTS ${s} CASCADE`.execute(db);
  await sql`CREATE SCHEMA ${s}`.execute(db);
  for (const table of [...WRITTEN_TABLES, ...RULE_TABLES]) {
    const t = sql.id(schema, table);
    await sql`CREATE TABLE ${t} (LIKE ${sql.id('public', table)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)`.execute(db);
    await ownSequences(db, schema, table);
  }
  await copyMonthInputs(db, schema, month);
  for (const table of RULE_TABLES) {
    await sql`INSERT INTO ${sql.id(schema, table)} SELECT * FROM ${sql.id('public', table)}`.execute(db);
  }
  if (scopeAgentIds !== undefined) {
    await sql`CREATE VIEW ${sql.id(schema, 'contract')} AS
      SELECT * FROM public.contract WHERE agent_id = ANY(${sql.lit(`{${scopeAgentIds.join(',')}}`)}::bigint[])`.execute(db);
  }
  return schema;
}

async function copyMonthInputs(db: Db, schema: string, month: string): Promise<void> {
  for (const [table, where] of Object.entries(MONTH_INPUTS)) {
    await sql`INSERT INTO ${sql.id(schema, table)} SELECT * FROM ${sql.id('public', table)} WHERE ${where(month)}`.execute(db);
  }
}

/**
 * Puts the written tables back as createScratch left them (the rule tables keep the changes applied so far), so
 * the next run of the steps is, by construction, a fresh simulation of the changes applied up to then. The steps
 * do replace their month's rows (a real re-run does), but they also read what an earlier run left (its settle
 * rows' statuses for holds and locks, its exception rows, retro_rule_scan); a fresh copy costs one TRUNCATE and
 * the month's inputs, small next to a run.
 */
export async function resetWritten(db: Db, schema: string, month: string): Promise<void> {
  await sql`TRUNCATE ${sql.join(WRITTEN_TABLES.map((t) => sql.id(schema, t)))}`.execute(db);
  await copyMonthInputs(db, schema, month);
}

/** Columns defaulting to a public sequence get a sequence of the scratch schema instead. */
async function ownSequences(db: Db, schema: string, table: string): Promise<void> {
  const { rows } = await sql<{ column_name: string }>`
    SELECT a.attname AS column_name
    FROM pg_attrdef d
    JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
    WHERE d.adrelid = ${`${schema}.${table}`}::regclass
      AND pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%'`.execute(db);
  for (const row of rows) {
    const seq = `${table}_${row.column_name}_seq`;
    const { rows: max } = await sql<{ m: string }>`
      SELECT coalesce(max(${sql.ref(row.column_name)}), 0)::text AS m FROM ${sql.id('public', table)}`.execute(db);
    await sql`CREATE SEQUENCE ${sql.id(schema, seq)} START ${sql.lit(Number(max[0]!.m) + 1_000_000)}`.execute(db);
    await sql`ALTER TABLE ${sql.id(schema, table)} ALTER COLUMN ${sql.id(row.column_name)}
      SET DEFAULT nextval(${sql.lit(`${schema}.${seq}`)}::regclass)`.execute(db);
  }
}

export async function dropScratch(db: Db, simulationId: number): Promise<void> {
  await sql`DROP SCHEMA IF EXISTS ${sql.id(scratchSchemaOf(simulationId))} CASCADE`.execute(db);
}
