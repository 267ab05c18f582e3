import { createDb, createPool } from '@csp/db';
import { collectionLine, persistencyLine } from '@csp/domain';
import { loadOtherCommissionSetup } from './src/calc/other-commission-rules.js';
import { persistencyCandidates, servicingCandidates } from './src/calc/other-commission-candidates.js';
import { insertRows } from './src/calc/other-commission-writer.js';
const pool = createPool({ connectionString: 'postgres://postgres@127.0.0.1:5432/csp_bench_settlement_i16', max: 2 });
const db = createDb(pool);
const month = '202507';
const t = () => performance.now();
let a = t();
const setup = await loadOtherCommissionSetup(db);
console.log('setup', (t() - a).toFixed(0));
a = t();
const c = await servicingCandidates(db, setup, month, { from: 1, to: 2000 }, undefined);
console.log('servicing', c.length, (t() - a).toFixed(0));
a = t();
const pc = await persistencyCandidates(db, month, { from: 1, to: 2000 }, undefined);
console.log('persistency', pc.length, (t() - a).toFixed(0));
a = t();
const rows: any[] = [];
for (const x of c) { const l = collectionLine(x, { agentId: x.agentId }, month, setup.rules.collection); if (l) rows.push({ ...l, policyNo: x.policyNo, companyCode: x.companyCode, productCode: x.productCode, insuranceType: x.insuranceType }); }
for (const x of pc) { const l = persistencyLine(x, month, setup.rules.persistency, { amount: x.recruitAmount, rows: x.recruitRows }); if (l) rows.push({ ...l, policyNo: x.policyNo, companyCode: x.companyCode, productCode: x.productCode, insuranceType: x.insuranceType }); }
console.log('domain', rows.length, (t() - a).toFixed(0));
a = t();
await db.transaction().execute(async (trx) => {
  await trx.executeQuery({ sql: "DELETE FROM other_commission_ledger WHERE settle_month = '202507' AND agent_id BETWEEN 1 AND 2000", parameters: [], query: undefined as never } as never).catch(() => undefined);
  const n = await insertRows(trx, month, 999, rows);
  console.log('insert', n, (t() - a).toFixed(0));
  await trx.executeQuery({ sql: "DELETE FROM other_commission_ledger WHERE run_id = 999", parameters: [], query: undefined as never } as never);
  a = t();
  const n2 = await insertRows(trx, month, 999, rows);
  console.log('insert again', n2, (t() - a).toFixed(0));
  await trx.executeQuery({ sql: "DELETE FROM other_commission_ledger WHERE run_id = 999", parameters: [], query: undefined as never } as never);
  a = t();
  const n3 = await insertRows(trx, month, 999, rows.map((r) => ({ ...r, basis: {} })));
  console.log('insert no basis', n3, (t() - a).toFixed(0));
  throw new Error('rollback');
}).catch(() => undefined);
await db.destroy();
