import type { Db } from '@csp/db';
import type { FieldCipher } from '@csp/service-kit';

export interface AgentSpec {
  name: string;
  taxType: 'BUSINESS_INCOME' | 'OTHER_INCOME';
  vatType: 'NONE' | 'EXEMPT' | 'TAXABLE';
  bankCode?: string | null;
  /** Plain account number (stored encrypted); null = none. */
  accountNo?: string | null;
}

/** An organization and the agents, accounts encrypted with the app's cipher; returns the agent ids in order. */
export async function seedAgents(db: Db, cipher: FieldCipher, agents: AgentSpec[]): Promise<number[]> {
  const org = await db
    .insertInto('organization')
    .values({ org_name: `Branch ${Math.random().toString(36).slice(2, 8)}`, org_type: 'BR' })
    .returning('org_id')
    .executeTakeFirstOrThrow();
  const rows = await db
    .insertInto('agent')
    .values(
      agents.map((a) => ({
        org_id: org.org_id,
        grade_id: 1,
        agent_name: a.name,
        tax_type: a.taxType,
        vat_type: a.vatType,
        bank_code: a.bankCode === undefined ? '004' : a.bankCode,
        account_no: a.accountNo === null ? null : cipher.encrypt(a.accountNo ?? '110-123-456789'),
      })),
    )
    .returning('agent_id')
    .execute();
  return rows.map((r) => r.agent_id);
}

/** A CONFIRMED settlement row whose gross is `gross` (recruit carries it; chargeback when negative). */
export async function confirmedSettlement(db: Db, agentId: number, settleMonth: string, gross: string): Promise<number> {
  const negative = gross.startsWith('-');
  const row = await db
    .insertInto('settle_master')
    .values({
      agent_id: agentId,
      settle_month: settleMonth,
      recruit_total: negative ? '0' : gross,
      chargeback_total: negative ? gross.slice(1) : '0',
      gross_amount: gross,
      tax_amount: '0',
      net_amount: gross,
      status: 'CONFIRMED',
      confirmed_at: new Date(),
    })
    .returning('settle_id')
    .executeTakeFirstOrThrow();
  return row.settle_id;
}

/** A CONFIRMED recruit or maintain ledger row of an agent (what explain and the statement read). */
export async function ledgerRow(
  db: Db,
  table: 'recruit_ledger' | 'maintain_ledger',
  row: { agentId: number; settleMonth: string; contractId: number; policyNo: string; year: number; premium: string; agentAmount: string },
): Promise<void> {
  await db
    .insertInto(table)
    .values({
      contract_id: row.contractId,
      agent_id: row.agentId,
      policy_no: row.policyNo,
      product_code: 'PR-1',
      company_code: 'L001',
      commission_year: row.year,
      premium: row.premium,
      company_rate: '10',
      company_amount: row.agentAmount,
      payout_rate: '100',
      agent_amount: row.agentAmount,
      settle_month: row.settleMonth,
      status: 'CONFIRMED',
    })
    .execute();
}
