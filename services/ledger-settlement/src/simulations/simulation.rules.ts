import type { Db } from '@csp/db';
import { chargebackRuleFields, commissionRateFields, payoutRuleFields } from '@csp/field-tables';
import { defineResource, invalid, type FieldTable } from '@csp/service-kit';
import { sql } from 'kysely';
import { z } from 'zod';
import type { RuleTableName } from './simulation.scratch.js';

export interface RuleTableInfo {
  ruleTable: RuleTableName;
  /** the metadata resource name (GET /api/meta/resources) of the owner's form */
  resource: string;
  path: string;
  label: string;
  idField: string;
  idColumn: string;
}

export const RULE_TABLE_INFO: readonly RuleTableInfo[] = [
  { ruleTable: 'commission_rate', resource: 'CommissionRate', path: '/api/rules/commission-rates', label: 'Commission rate', idField: 'rateId', idColumn: 'rate_id' },
  { ruleTable: 'payout_rule', resource: 'PayoutRule', path: '/api/rules/payout', label: 'Payout rule', idField: 'ruleId', idColumn: 'rule_id' },
  { ruleTable: 'override_rule', resource: 'OverrideRule', path: '/api/rules/override', label: 'Override rule', idField: 'overrideId', idColumn: 'override_id' },
  { ruleTable: 'chargeback_rule', resource: 'ChargebackRule', path: '/api/rules/chargeback', label: 'Chargeback rule', idField: 'cbRuleId', idColumn: 'cb_rule_id' },
  { ruleTable: 'collection_rule', resource: 'CollectionRule', path: '/api/rules/collection', label: 'Collection rule', idField: 'ruleId', idColumn: 'rule_id' },
  { ruleTable: 'renewal_rule', resource: 'RenewalRule', path: '/api/rules/renewal', label: 'Renewal rule', idField: 'ruleId', idColumn: 'rule_id' },
  { ruleTable: 'reinstatement_rule', resource: 'ReinstatementRule', path: '/api/rules/reinstatement', label: 'Reinstatement rule', idField: 'ruleId', idColumn: 'rule_id' },
  { ruleTable: 'persistency_rule', resource: 'PersistencyRule', path: '/api/rules/persistency', label: 'Persistency rule', idField: 'ruleId', idColumn: 'rule_id' },
  { ruleTable: 'appointment_rule', resource: 'AppointmentRule', path: '/api/rules/appointment', label: 'Appointment rule', idField: 'ruleId', idColumn: 'rule_id' },
];

export function ruleTableInfo(table: string): RuleTableInfo | undefined {
  return RULE_TABLE_INFO.find((r) => r.ruleTable === table);
}

/**
 * The owner's save schema of the rule tables whose field table is shared (@csp/field-tables): the same
 * declaration master-data's resource compiles. Rows of the other rule tables are checked column by column.
 */
function saveSchemaOf(table: string, fields: FieldTable): z.ZodType {
  return defineResource({ name: `Sim${table}`, path: `/internal/${table}`, table: table as 'payout_rule', alias: 't', menu: 'SIMULATION', fields }).schemas.save;
}

const OWN_SCHEMAS: Partial<Record<RuleTableName, () => z.ZodType>> = {
  payout_rule: () => saveSchemaOf('payout_rule', payoutRuleFields),
  commission_rate: () => saveSchemaOf('commission_rate', commissionRateFields),
  chargeback_rule: () => saveSchemaOf('chargeback_rule', chargebackRuleFields),
};
const compiled = new Map<string, z.ZodType>();

function ownSchema(table: RuleTableName): z.ZodType | undefined {
  const make = OWN_SCHEMAS[table];
  if (!make) return undefined;
  let schema = compiled.get(table);
  if (!schema) {
    schema = make();
    compiled.set(table, schema);
  }
  return schema;
}

export const changeSchema = z.object({
  ruleTable: z.enum(RULE_TABLE_INFO.map((r) => r.ruleTable) as [RuleTableName, ...RuleTableName[]]),
  action: z.enum(['ADD', 'REPLACE', 'END']),
  targetId: z.number().int().positive().optional(),
  values: z.record(z.string(), z.unknown()).optional(),
  endDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
});
export type ChangeInput = z.infer<typeof changeSchema>;

function snake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The change's values as columns of the rule table: validated with the owner's schema when it is shared. */
export function columnsOf(change: ChangeInput, index: number): Record<string, unknown> {
  const schema = ownSchema(change.ruleTable);
  const values = change.values ?? {};
  if (!schema) return Object.fromEntries(Object.entries(values).map(([k, v]) => [snake(k), v]));
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(`changes[${index}].values.${issue.path.join('.')}`, issue.message);
  }
  return Object.fromEntries(
    Object.entries(parsed.data as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [snake(k), v]),
  );
}

/** Checks one proposed change against the real rule table (target exists, dates make sense). */
export async function checkChange(db: Db, change: ChangeInput, index: number): Promise<Record<string, unknown>> {
  const info = ruleTableInfo(change.ruleTable)!;
  const at = (field: string) => `changes[${index}].${field}`;
  if (change.action === 'ADD') {
    if (!change.values) throw invalid(at('values'), 'is required for ADD');
    return columnsOf(change, index);
  }
  if (change.targetId === undefined) throw invalid(at('targetId'), `is required for ${change.action}`);
  const { rows } = await sql<{ effective_from: string }>`
    SELECT effective_from::text FROM ${sql.id('public', change.ruleTable)} WHERE ${sql.ref(info.idColumn)} = ${change.targetId}`.execute(db);
  const target = rows[0];
  if (!target) throw invalid(at('targetId'), `no ${info.label} ${change.targetId}`);
  if (change.action === 'END') {
    if (!change.endDate) throw invalid(at('endDate'), 'is required for END');
    if (change.endDate <= target.effective_from) throw invalid(at('endDate'), 'must be after the row starts');
    return {};
  }
  if (!change.values) throw invalid(at('values'), 'is required for REPLACE');
  const columns = columnsOf(change, index);
  const from = columns.effective_from;
  if (typeof from !== 'string' || from <= target.effective_from) {
    throw invalid(at('values.effectiveFrom'), 'must be after the replaced row starts');
  }
  return columns;
}

/** Applies a checked change to the scratch copy of its rule table (effective-dated: REPLACE ends the target). */
export async function applyChange(
  db: Db,
  schema: string,
  change: { rule_table: string; action: string; target_id: number | null; end_date: string | null },
  columns: Record<string, unknown>,
): Promise<void> {
  const info = ruleTableInfo(change.rule_table)!;
  const table = sql.id(schema, change.rule_table);
  const id = sql.ref(info.idColumn);
  if (change.action === 'END') {
    await sql`UPDATE ${table} SET effective_to = ${change.end_date}::date WHERE ${id} = ${change.target_id}`.execute(db);
    return;
  }
  const names = Object.keys(columns);
  const assign = sql.join(names.map((n) => sql`${sql.ref(n)} = ${columns[n]}`));
  if (change.action === 'REPLACE') {
    await sql`UPDATE ${table} SET effective_to = ${columns.effective_from}::date WHERE ${id} = ${change.target_id}`.execute(db);
    // the new row: the target's columns, then the change's values; a fresh id from the scratch sequence
    const { rows: cols } = await sql<{ attname: string }>`
      SELECT attname FROM pg_attribute WHERE attrelid = ${`${schema}.${change.rule_table}`}::regclass
        AND attnum > 0 AND NOT attisdropped AND attname <> ${info.idColumn}`.execute(db);
    const list = sql.join(cols.map((c) => sql.id(c.attname)));
    const { rows: created } = await sql<{ id: number }>`
      INSERT INTO ${table} (${list}) SELECT ${list} FROM ${table} WHERE ${id} = ${change.target_id}
      RETURNING ${id} AS id`.execute(db);
    await sql`UPDATE ${table} SET ${assign}, effective_to = ${(columns.effective_to as string | undefined) ?? null}::date
      WHERE ${id} = ${created[0]!.id}`.execute(db);
    return;
  }
  await sql`INSERT INTO ${table} (${sql.join(names.map((n) => sql.id(n)))})
    VALUES (${sql.join(names.map((n) => sql`${columns[n]}`))})`.execute(db);
}
