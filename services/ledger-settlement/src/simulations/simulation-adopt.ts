import type { Db } from '@csp/db';
import { writeContractEvent } from '@csp/events';
import { AppError, invalid, readSystemConfig, type ChangeLogEntry } from '@csp/service-kit';
import { sql } from 'kysely';
import { MENU_SIMULATION } from './simulation.resource.js';
import { columnsOf, ruleTableInfo, type ChangeInput } from './simulation.rules.js';
import { loadSimulation } from './simulation.service.js';

const DEFAULT_LINE = 'SIMULATION_DEFAULT';

type Row = Record<string, unknown>;
type ChangeRow = { seq: number; rule_table: string; action: string; target_id: number | null; values: unknown; end_date: string | null };

function changeInput(c: ChangeRow): ChangeInput {
  return {
    ruleTable: c.rule_table as ChangeInput['ruleTable'],
    action: c.action as ChangeInput['action'],
    ...(c.target_id !== null ? { targetId: Number(c.target_id) } : {}),
    ...(c.values ? { values: c.values as Record<string, unknown> } : {}),
  };
}

function changesOfSimulation(db: Db, id: number) {
  return db
    .selectFrom('simulation_change')
    .select(['seq', 'rule_table', 'action', 'target_id', 'values', 'end_date'])
    .where('simulation_id', '=', id)
    .orderBy('seq')
    .execute();
}

/**
 * Checks that every REPLACE/END target can take a revision dated `from` (its period must contain `from`,
 * half-open) and that an ADD's own effectiveTo, if any, is after `from`. `fail` makes the error: E411 on
 * effectiveFrom when adoption is asked, a refusal when the approved decision is applied.
 */
async function checkAt(db: Db, changes: readonly ChangeRow[], from: string, fail: (message: string) => Error, lock: boolean) {
  const targets = new Map<number, Row>();
  for (const [i, c] of changes.entries()) {
    const info = ruleTableInfo(c.rule_table)!;
    const label = `change ${c.seq} (${info.label}${c.target_id !== null ? ` #${c.target_id}` : ''} ${c.action})`;
    if (c.action === 'ADD') {
      const to = columnsOf(changeInput(c), i).effective_to;
      if (typeof to === 'string' && to <= from) throw fail(`${label}: its effectiveTo ${to} is not after ${from}`);
      continue;
    }
    const { rows } = await sql<Row>`SELECT *, effective_from::text AS from_text, effective_to::text AS to_text
      FROM ${sql.table(c.rule_table)} WHERE ${sql.ref(info.idColumn)} = ${c.target_id} ${lock ? sql`FOR UPDATE` : sql``}`.execute(db);
    const target = rows[0];
    if (!target) throw fail(`${label}: the row no longer exists`);
    const start = String(target.from_text);
    const end = target.to_text === null ? null : String(target.to_text);
    if (from <= start) throw fail(`${label}: the row starts ${start}, a revision must start after it`);
    if (end !== null && from >= end) throw fail(`${label}: the row already ends ${end}, before ${from}`);
    targets.set(i, target);
  }
  return targets;
}

/**
 * DONE -> ADOPTION_PENDING: asks the approval workflow (APPROVAL_REQUESTED, target SIMULATION, through the
 * outbox in the same transaction) on system_config SIMULATION_APPROVAL_LINE (else SIMULATION_DEFAULT). The
 * simulation's author is the requester, so the workflow refuses the author as approver. The decision comes
 * back as APPROVAL_DECIDED (simulation-events.ts).
 */
export async function requestAdoption(
  db: Db,
  input: { id: number; effectiveFrom: string; userId: number },
): Promise<{ approvalLineCode: string; change: ChangeLogEntry }> {
  return db.transaction().execute(async (trx) => {
    const before = await loadSimulation(trx, input.id, true);
    if (before.status !== 'DONE') {
      throw new AppError('BAD_REQUEST', `Simulation ${input.id} is ${before.status}: only a DONE simulation can be adopted`);
    }
    await checkAt(trx, await changesOfSimulation(trx, input.id), input.effectiveFrom, (m) => invalid('effectiveFrom', m), false);
    const line = (await readSystemConfig(trx, ['SIMULATION_APPROVAL_LINE'])).get('SIMULATION_APPROVAL_LINE')?.trim() || DEFAULT_LINE;
    const after = await trx
      .updateTable('simulation')
      .set({ status: 'ADOPTION_PENDING', adopt_from: input.effectiveFrom, approval_id: null, error_message: null, updated_at: new Date() })
      .where('simulation_id', '=', input.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeContractEvent(trx, 'APPROVAL_REQUESTED', {
      targetType: 'SIMULATION',
      targetId: input.id,
      approvalLineCode: line,
      requestedBy: before.created_by ?? input.userId,
      title: `Adopt simulation #${input.id} ${before.name} from ${input.effectiveFrom}`.slice(0, 200),
    });
    return {
      approvalLineCode: line,
      change: { menuCode: MENU_SIMULATION, tableName: 'simulation', recordId: input.id, action: 'UPDATE', before, after: { ...after, approvalLineCode: line } },
    };
  });
}

const insertRow = async (trx: Db, table: string, idColumn: string, row: Row) => {
  const columns = Object.keys(row);
  const { rows } = await sql<Row>`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
    VALUES (${sql.join(columns.map((c) => row[c]))}) RETURNING *`.execute(trx);
  return { id: Number(rows[0]![idColumn]), row: rows[0]! };
};

/**
 * Writes the simulation's changes as real rule revisions dated `from` (inside the consumer's transaction):
 * ADD inserts the row from `from`; REPLACE ends the target (effective_to = `from`, exclusive: its last day
 * is the day before, as a master-data revision) and inserts the target's copy with the change's values from
 * `from`; END ends the target at `from`. Every written row carries simulation_id and version + 1 on the
 * revised ones. Returns the change-log entries.
 */
export async function writeRevisions(
  trx: Db,
  simulationId: number,
  from: string,
  userId: number | null,
  fail: (message: string) => Error,
): Promise<ChangeLogEntry[]> {
  const changes = await changesOfSimulation(trx, simulationId);
  const targets = await checkAt(trx, changes, from, fail, true);
  const log: ChangeLogEntry[] = [];
  const now = new Date();
  for (const [i, c] of changes.entries()) {
    const info = ruleTableInfo(c.rule_table)!;
    const entry = (recordId: number, action: 'CREATE' | 'UPDATE', after: Row, before?: Row): ChangeLogEntry => ({
      menuCode: MENU_SIMULATION,
      tableName: c.rule_table,
      recordId,
      action,
      ...(before ? { before } : {}),
      after,
    });
    if (c.action === 'ADD') {
      const columns = columnsOf(changeInput(c), i);
      const row = { ...columns, effective_from: from, effective_to: columns.effective_to ?? null, simulation_id: simulationId, created_by: userId, updated_by: userId };
      const inserted = await insertRow(trx, c.rule_table, info.idColumn, row);
      log.push(entry(inserted.id, 'CREATE', inserted.row));
      continue;
    }
    const target = targets.get(i)!;
    const version = Number(target.version) + 1;
    const { rows: closed } = await sql<Row>`UPDATE ${sql.table(c.rule_table)}
      SET effective_to = ${from}::date, version = ${version}, simulation_id = ${simulationId}, updated_at = ${now}, updated_by = ${userId}
      WHERE ${sql.ref(info.idColumn)} = ${c.target_id} RETURNING *`.execute(trx);
    const before: Row = { ...target };
    delete before.from_text;
    delete before.to_text;
    log.push(entry(Number(c.target_id), 'UPDATE', closed[0]!, before));
    if (c.action === 'END') continue;
    const columns = columnsOf(changeInput(c), i);
    const copy: Row = {
      ...before,
      ...columns,
      effective_from: from,
      effective_to: 'effective_to' in columns ? columns.effective_to : before.effective_to,
      version,
      simulation_id: simulationId,
      created_by: userId,
      updated_by: userId,
    };
    for (const column of [info.idColumn, 'created_at', 'updated_at']) delete copy[column];
    const inserted = await insertRow(trx, c.rule_table, info.idColumn, copy);
    log.push(entry(inserted.id, 'CREATE', inserted.row));
  }
  return log;
}
