import type { Trx } from '@csp/batch';
import { sql } from 'kysely';
import type { ContractMatch } from '../transform/resolve-ledger-row.js';
import { intakeDb } from '../db.js';

/** Contracts (with product and carrier) of the given policy numbers, keyed by policy_no. */
export async function loadContractsByPolicy(
  trx: Trx,
  policyNos: readonly string[],
): Promise<Map<string, ContractMatch>> {
  const result = new Map<string, ContractMatch>();
  if (policyNos.length === 0) return result;
  const rows = await intakeDb(trx)
    .selectFrom('contract as c')
    .innerJoin('product as p', 'p.product_id', 'c.product_id')
    .innerJoin('insurance_company as ic', 'ic.company_id', 'p.company_id')
    .select([
      'c.contract_id',
      'c.agent_id',
      'c.policy_no',
      'c.premium',
      'c.pay_cycle',
      'c.contract_date',
      'p.product_code',
      'p.insurance_type',
      'ic.company_code',
    ])
    // One JSON parameter (thousands of policy numbers per chunk), matched through the unique index.
    .where(
      'c.policy_no',
      'in',
      sql<string>`(SELECT json_array_elements_text(${JSON.stringify([...new Set(policyNos)])}::json))`,
    )
    .execute();
  for (const r of rows) {
    result.set(r.policy_no, {
      contractId: r.contract_id,
      agentId: r.agent_id,
      policyNo: r.policy_no,
      companyCode: r.company_code,
      productCode: r.product_code,
      insuranceType: r.insurance_type,
      premium: r.premium,
      payCycle: r.pay_cycle,
      contractDate: r.contract_date,
    });
  }
  return result;
}
