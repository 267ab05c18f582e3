// Measures steps 1-3 on generated data: node --conditions=source --import tsx bench/transform-data-bench.ts [rows]
// Uses a throw-away test database and a random BullMQ prefix (see test/helpers.ts).
import { sql } from 'kysely';
import { createHarness, seedMaster, stepOf } from '../test/helpers.js';

const rows = Number(process.argv[2] ?? 100_000);
const month = '202501';
const h = await createHarness();
try {
  const ids = await seedMaster(h.db);
  await h.db
    .insertInto('company_field_mapping')
    .values([
      {
        company_code: 'L001',
        target_table: 'recruit_ledger',
        target_field: 'policy_no',
        source_field: 'POLICY',
        transform_rule: 'TRIM|UPPER',
        is_required: true,
      },
      {
        company_code: 'L001',
        target_table: 'recruit_ledger',
        target_field: 'premium',
        source_field: 'PREM',
        transform_rule: 'DIVIDE:100',
      },
      {
        company_code: 'L001',
        target_table: 'recruit_ledger',
        target_field: 'company_amount',
        source_field: 'COMM',
        is_required: true,
      },
      {
        company_code: 'L001',
        target_table: 'recruit_ledger',
        target_field: 'insurance_type',
        source_field: 'TYPE',
        transform_rule: 'CODE_MAP:INSURANCE_TYPE',
      },
    ])
    .execute();
  await h.db
    .insertInto('code_mapping')
    .values({ company_code: 'L001', code_type: 'INSURANCE_TYPE', source_code: '01', target_code: 'LIFE' })
    .execute();
  await sql`
    INSERT INTO contract (agent_id, product_id, policy_no, premium, contract_date)
    SELECT ${ids.agentId}, ${ids.productId}, 'B-' || g, 100000, DATE '2025-01-05' FROM generate_series(1, ${rows}::int) g`.execute(
    h.db,
  );
  // 1 % of the rows point to unknown policies (CONTRACT_NOT_FOUND)
  await sql`
    INSERT INTO raw_commission_data (company_code, settle_month, data_type, raw_content)
    SELECT 'L001', ${month}, 'RECRUIT',
           json_build_object('POLICY', CASE WHEN g % 100 = 0 THEN ' x-' ELSE ' b-' END || g, 'PREM', '10000000',
                             'COMM', (g % 5000) || '.25', 'TYPE', '01')::text
    FROM generate_series(1, ${rows}::int) g`.execute(h.db);
  await sql`ANALYZE`.execute(h.db);

  const started = Date.now();
  const status = await h.runMonth(month);
  const wall = Date.now() - started;
  const summary = (name: string) => {
    const s = stepOf(status, name);
    return {
      step: name,
      ms: s.durationMs,
      total: s.totalCount,
      success: s.successCount,
      error: s.errorCount,
      chunks: s.chunkCount,
    };
  };
  console.log(
    JSON.stringify(
      {
        rows,
        runStatus: status.run.status,
        wallMs: wall,
        steps: ['receiveData', 'transformData', 'reconcile'].map(summary),
      },
      null,
      1,
    ),
  );
  console.log(
    `transformData: ${Math.round(rows / ((stepOf(status, 'transformData').durationMs ?? 1) / 1000))} rows/s`,
  );
} finally {
  await h.close();
}
