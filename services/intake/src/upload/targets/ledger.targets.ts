import { z } from 'zod';
import type { Insertable, Kysely } from 'kysely';
import { commissionYearInMonth } from '@csp/domain';
import type { CommissionLedgerTable, Database, ExceptionLedgerTable, MappingTargetTable } from '@csp/db';
import { exceptionRegisterReq } from '@csp/field-tables';
import { int, money, month, rate, text } from './cells.js';
import { ownerRowSchema, type OwnerRow } from './owner-body.js';
import { frozenSettlements } from './references.js';
import {
  cachedLookup,
  rejected,
  type ImportContext,
  type ImportTarget,
  type Prepared,
  type TargetField,
} from './target.js';

interface ContractInfo {
  contractId: number;
  agentId: number;
  companyCode: string;
  productCode: string;
  insuranceType: string;
  premium: string;
  payCycle: string;
  contractDate: string | null;
}

async function contractsByPolicy(
  db: Kysely<Database>,
  policyNos: string[],
): Promise<Map<string, ContractInfo>> {
  const rows = await db
    .selectFrom('contract as c')
    .innerJoin('product as p', 'p.product_id', 'c.product_id')
    .innerJoin('insurance_company as ic', 'ic.company_id', 'p.company_id')
    .select([
      'c.policy_no',
      'c.contract_id',
      'c.agent_id',
      'c.premium',
      'c.pay_cycle',
      'c.contract_date',
      'p.product_code',
      'p.insurance_type',
      'ic.company_code',
    ])
    .where('c.policy_no', 'in', policyNos)
    .execute();
  return new Map(
    rows.map((r) => [
      r.policy_no,
      {
        contractId: r.contract_id,
        agentId: r.agent_id,
        companyCode: r.company_code,
        productCode: r.product_code,
        insuranceType: r.insurance_type,
        premium: r.premium,
        payCycle: r.pay_cycle,
        contractDate: r.contract_date,
      },
    ]),
  );
}

const ledgerSchema = z.object({
  policy_no: text(50, true),
  settle_month: month(true),
  commission_year: int(1, 99),
  premium: money(),
  pay_method: text(12),
  company_rate: rate(),
  company_amount: money(),
  payout_rate: rate(),
  agent_amount: money(),
  tax_amount: money(),
  reported_premium: money(),
  reported_company_amount: money(),
});
type LedgerRow = z.output<typeof ledgerSchema>;
type LedgerValues = Insertable<CommissionLedgerTable>;

const MAINTAIN_YEARS = { min: 2, max: 5 };

/**
 * recruit_ledger / maintain_ledger (ledger-settlement): the policy must match a contract (of the
 * template's carrier, if it has one); contract, agent, product and carrier come from it; RECRUIT is
 * year 1, MAINTAIN 2-5 (default: the contract's commission year in the month); rows of a confirmed
 * settlement are refused; one row per (contract, month, year).
 */
function ledgerTarget(table: MappingTargetTable): ImportTarget<LedgerRow, LedgerValues> {
  const recruit = table === 'recruit_ledger';
  return {
    table,
    label: recruit ? 'Recruit ledger' : 'Maintain ledger',
    owner: 'ledger-settlement',
    // The ledger menus have no CREATE: importing carrier ledger figures is receiving data.
    permission: { menu: 'RECEIVE_DATA', perm: 'UPDATE' },
    fields: [
      { field: 'policy_no', label: 'Policy number', type: 'STRING', required: true },
      { field: 'settle_month', label: 'Settle month', type: 'STRING', required: true, description: 'YYYYMM' },
      {
        field: 'commission_year',
        label: 'Commission year',
        type: 'INTEGER',
        required: false,
        description: recruit ? 'must be 1' : "2-5; default the contract's year in the month",
      },
      {
        field: 'premium',
        label: 'Premium',
        type: 'AMOUNT',
        required: false,
        description: "default the contract's",
      },
      { field: 'pay_method', label: 'Pay method', type: 'STRING', required: false },
      { field: 'company_rate', label: 'Company rate (%)', type: 'RATE', required: false },
      { field: 'company_amount', label: 'Company amount', type: 'AMOUNT', required: false },
      { field: 'payout_rate', label: 'Payout rate (%)', type: 'RATE', required: false },
      { field: 'agent_amount', label: 'Agent amount', type: 'AMOUNT', required: false },
      { field: 'tax_amount', label: 'Tax amount', type: 'AMOUNT', required: false },
      { field: 'reported_premium', label: 'Reported premium', type: 'AMOUNT', required: false },
      { field: 'reported_company_amount', label: 'Reported company amount', type: 'AMOUNT', required: false },
    ],
    // the ledgers are read-only resources written by batch steps: no owner save body to reuse
    rowSchema: () => ledgerSchema,
    open(ctx: ImportContext) {
      return {
        async prepare(rows) {
          const contracts = await contractsByPolicy(ctx.db, [...new Set(rows.map((r) => r.policy_no))]);
          const frozen = await frozenSettlements(
            ctx.db,
            rows.flatMap((r) => {
              const c = contracts.get(r.policy_no);
              return c ? [{ agentId: c.agentId, settleMonth: r.settle_month }] : [];
            }),
          );
          return rows.map((r): Prepared<LedgerValues> => {
            const c = contracts.get(r.policy_no);
            if (!c) return rejected('policy_no', `no contract with policy number ${r.policy_no}`);
            if (ctx.companyCode !== null && c.companyCode !== ctx.companyCode) {
              return rejected(
                'policy_no',
                `contract ${r.policy_no} belongs to carrier ${c.companyCode}, not ${ctx.companyCode}`,
              );
            }
            let year = r.commission_year;
            if (recruit) {
              if (year !== undefined && year !== 1)
                return rejected('commission_year', 'must be 1 in the recruit ledger');
              year = 1;
            } else {
              if (year === undefined) {
                if (c.contractDate === null)
                  return rejected('commission_year', 'is required (the contract has no contract date)');
                year = commissionYearInMonth(c.contractDate, r.settle_month);
              }
              if (year < MAINTAIN_YEARS.min || year > MAINTAIN_YEARS.max) {
                return rejected(
                  'commission_year',
                  `must be ${MAINTAIN_YEARS.min}-${MAINTAIN_YEARS.max} in the maintain ledger, is ${year}`,
                );
              }
            }
            const status = frozen.get(`${c.agentId}/${r.settle_month}`);
            if (status)
              return rejected(
                'settle_month',
                `the settlement of agent ${c.agentId} for ${r.settle_month} is ${status}`,
              );
            return {
              ok: true,
              values: {
                contract_id: c.contractId,
                agent_id: c.agentId,
                policy_no: r.policy_no,
                company_code: c.companyCode,
                product_code: c.productCode,
                insurance_type: c.insuranceType,
                commission_year: year,
                premium: r.premium ?? c.premium,
                pay_method: r.pay_method ?? c.payCycle.slice(0, 12),
                company_rate: r.company_rate ?? '0',
                company_amount: r.company_amount ?? '0',
                payout_rate: r.payout_rate ?? '0',
                agent_amount: r.agent_amount ?? '0',
                tax_amount: r.tax_amount ?? '0',
                reported_premium: r.reported_premium ?? null,
                reported_company_amount: r.reported_company_amount ?? null,
                settle_month: r.settle_month,
                created_by: ctx.userId,
                updated_by: ctx.userId,
              },
            };
          });
        },
        copyTable: table,
      };
    },
  };
}

export const recruitLedgerTarget = ledgerTarget('recruit_ledger');
export const maintainLedgerTarget = ledgerTarget('maintain_ledger');

// ---- exception_ledger ------------------------------------------------------------------------
type ExceptionBody = z.output<typeof exceptionRegisterReq>;
/** Import-only field: the policy (the owner's body takes the contract id). */
const exceptionExtra = { policy_no: text(50) };
type ExceptionRow = OwnerRow<ExceptionBody, z.output<z.ZodObject<typeof exceptionExtra>>>;
type ExceptionValues = Insertable<ExceptionLedgerTable>;

const EXCEPTION_FIELDS: TargetField[] = [
  { field: 'agent_id', label: 'Agent ID', type: 'INTEGER', required: true },
  { field: 'settle_month', label: 'Settle month', type: 'STRING', required: true, description: 'YYYYMM' },
  { field: 'exception_code', label: 'Exception code', type: 'STRING', required: true },
  { field: 'amount', label: 'Amount', type: 'AMOUNT', required: true },
  { field: 'policy_no', label: 'Policy number', type: 'STRING', required: false },
  { field: 'reason', label: 'Reason', type: 'STRING', required: false },
  { field: 'recurring_yn', label: 'Recurring', type: 'BOOLEAN', required: false },
  {
    field: 'recurring_until',
    label: 'Recurring until',
    type: 'STRING',
    required: false,
    description: 'YYYYMM',
  },
];

/**
 * exception_ledger (ledger-settlement, POST /api/ledger/exception): each row is checked by the
 * register body (@csp/field-tables exceptionRegisterReq: amount > 0, a reason, a recurring row needs
 * recurring_until), then like the register: the agent and an active exception code exist (its
 * direction is the code's), a policy number matches a contract of that agent, the agent's month is
 * not frozen; rows wait for approval (PENDING).
 */
export const exceptionLedgerTarget: ImportTarget<ExceptionRow, ExceptionValues> = {
  table: 'exception_ledger',
  label: 'Exception ledger',
  owner: 'ledger-settlement',
  permission: { menu: 'LEDGER_EXCEPTION', perm: 'CREATE' },
  fields: EXCEPTION_FIELDS,
  rowSchema: ownerRowSchema<ExceptionBody, typeof exceptionExtra>({
    owner: exceptionRegisterReq,
    fields: EXCEPTION_FIELDS.map((f) => f.field),
    convert: { recurring_yn: (v) => (v === true ? 'Y' : v === false ? 'N' : v) },
    extra: exceptionExtra,
  }),
  open(ctx: ImportContext) {
    const agents = new Map<number, boolean>();
    const codes = new Map<string, { direction: 'PLUS' | 'MINUS'; active: boolean } | undefined>();
    return {
      async prepare(rows) {
        await cachedLookup(
          agents,
          rows.map((r) => r.body.agentId),
          async (m) =>
            new Map(
              (await ctx.db.selectFrom('agent').select('agent_id').where('agent_id', 'in', m).execute()).map(
                (a) => [a.agent_id, true],
              ),
            ),
          false,
        );
        await cachedLookup(
          codes,
          rows.map((r) => r.body.exceptionCode),
          async (m) => {
            const found = await ctx.db
              .selectFrom('exception_type_code')
              .select(['exception_code', 'direction', 'is_active'])
              .where('exception_code', 'in', m)
              .execute();
            return new Map(
              found.map((c) => [c.exception_code, { direction: c.direction, active: c.is_active }]),
            );
          },
          undefined,
        );
        const policies = [...new Set(rows.flatMap((r) => (r.extra.policy_no ? [r.extra.policy_no] : [])))];
        const contracts = policies.length
          ? await contractsByPolicy(ctx.db, policies)
          : new Map<string, ContractInfo>();
        const frozen = await frozenSettlements(
          ctx.db,
          rows.map((r) => ({ agentId: r.body.agentId, settleMonth: r.body.settleMonth })),
        );
        return rows.map(({ body: b, extra }): Prepared<ExceptionValues> => {
          if (!agents.get(b.agentId)) return rejected('agent_id', `agent ${b.agentId} does not exist`);
          const code = codes.get(b.exceptionCode);
          if (!code) return rejected('exception_code', `exception code ${b.exceptionCode} does not exist`);
          if (!code.active)
            return rejected('exception_code', `exception code ${b.exceptionCode} is inactive`);
          const c = extra.policy_no ? contracts.get(extra.policy_no) : undefined;
          if (extra.policy_no && !c)
            return rejected('policy_no', `no contract with policy number ${extra.policy_no}`);
          if (c && c.agentId !== b.agentId)
            return rejected('policy_no', `contract ${extra.policy_no} is not agent ${b.agentId}'s`);
          const status = frozen.get(`${b.agentId}/${b.settleMonth}`);
          if (status)
            return rejected(
              'settle_month',
              `the settlement of agent ${b.agentId} for ${b.settleMonth} is ${status}`,
            );
          return {
            ok: true,
            values: {
              agent_id: b.agentId,
              contract_id: c?.contractId ?? null,
              policy_no: c ? extra.policy_no! : null,
              company_code: c?.companyCode ?? null,
              product_code: c?.productCode ?? null,
              insurance_type: c?.insuranceType ?? null,
              settle_month: b.settleMonth,
              exception_code: b.exceptionCode,
              direction: code.direction,
              amount: b.amount,
              reason: b.reason,
              recurring_yn: b.recurringYn,
              recurring_until: b.recurringYn === 'Y' ? b.recurringUntil! : null,
              source: 'MANUAL',
              created_by: ctx.userId,
              updated_by: ctx.userId,
            },
          };
        });
      },
      copyTable: 'exception_ledger',
    };
  },
};
