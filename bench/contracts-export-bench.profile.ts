import { PassThrough } from 'node:stream';
import { createDb, createPool } from '../packages/db/src/index.js';
import { streamRows, writeSpreadsheet } from '../packages/service-kit/src/index.js';
import { contractResource } from '../services/master-data/src/contracts/contract-resource.js';
import { baseSelect } from '../packages/service-kit/src/resource-query.js';

const pool = createPool({ connectionString: 'postgres://postgres@127.0.0.1:5432/csp_bench_export', max: 2 });
const db = createDb(pool);
const qb = baseSelect(contractResource as any, db).orderBy('ct.contract_id');
const compiled = qb.compile();

let t = performance.now();
let n = 0;
for await (const _r of streamRows(pool, compiled, Number(process.argv[2] ?? 1000))) n++;
console.log('cursor only', n, ((performance.now() - t) / 1000).toFixed(2));

t = performance.now();
const out = new PassThrough({ highWaterMark: 1024 * 1024 });
let bytes = 0;
out.on('data', (c: Buffer) => (bytes += c.length));
const count = await writeSpreadsheet(out, { columns: contractResource.exportColumns as any, rows: streamRows(pool, compiled) });
console.log('full', count, bytes, ((performance.now() - t) / 1000).toFixed(2));

async function* fake(k: number) { const row = { contract_id: 1, policy_no: 'BENCH000000001', agent_id: 5, agent_name: 'Agent 5', org_name: 'Team 5', company_name: 'Bench company 1', product_name: 'Bench Product 1', contractor_name: 'Holder 1', insured_name: 'Insured 1', premium: '12345.67', pay_cycle_name: 'Monthly', status_name: 'In force', contract_date: '2020-01-01', effective_date: '2020-01-02', lapse_date: null }; for (let i = 0; i < k; i++) yield row; }
t = performance.now();
const out2 = new PassThrough({ highWaterMark: 1024 * 1024 });
out2.resume();
await writeSpreadsheet(out2, { columns: contractResource.exportColumns as any, rows: fake(n) });
console.log('exceljs only', ((performance.now() - t) / 1000).toFixed(2));
await pool.end();
