import { z } from 'zod';
import type { Insertable } from 'kysely';
import { CONTRACT_STATUSES, PAY_CYCLES, type ContractTable } from '@csp/db';
import { cachedLookup, rejected, type ImportContext, type ImportTarget, type Prepared } from './target.js';
import { date, id, int, money, oneOf, text } from './cells.js';
import { agentsExist, productIds } from './references.js';

const schema = z.object({
  policy_no: text(50, true),
  agent_id: id(true),
  product_code: text(30, true),
  company_code: text(20),
  contractor_name: text(100),
  insured_name: text(100),
  premium: money(true),
  pay_cycle: oneOf(PAY_CYCLES, 'MONTHLY'),
  pay_period: int(0, 100),
  coverage_period: int(0, 120),
  status: oneOf(CONTRACT_STATUSES, 'ACTIVE'),
  contract_date: date(),
  effective_date: date(),
  lapse_date: date(),
  revival_date: date(),
});
type Row = z.output<typeof schema>;
type Values = Insertable<ContractTable>;

/** contract (master-data, POST /api/contracts): agent and product must exist; policy numbers are unique. */
export const contractTarget: ImportTarget<Row, Values> = {
  table: 'contract',
  label: 'Contracts',
  owner: 'master-data',
  permission: { menu: 'CONTRACT_LIST', perm: 'CREATE' },
  fields: [
    { field: 'policy_no', label: 'Policy number', type: 'STRING', required: true },
    {
      field: 'agent_id',
      label: 'Agent ID',
      type: 'INTEGER',
      required: true,
      description: 'or LOOKUP:AGENT_BY_LICENSE',
    },
    { field: 'product_code', label: 'Product code', type: 'STRING', required: true },
    {
      field: 'company_code',
      label: 'Company code',
      type: 'STRING',
      required: false,
      description: "the product's carrier; default the template's",
    },
    { field: 'contractor_name', label: 'Contractor', type: 'STRING', required: false },
    { field: 'insured_name', label: 'Insured', type: 'STRING', required: false },
    { field: 'premium', label: 'Premium', type: 'AMOUNT', required: true },
    {
      field: 'pay_cycle',
      label: 'Pay cycle',
      type: 'STRING',
      required: false,
      description: PAY_CYCLES.join(', '),
    },
    { field: 'pay_period', label: 'Pay period (years)', type: 'INTEGER', required: false },
    { field: 'coverage_period', label: 'Coverage period (years)', type: 'INTEGER', required: false },
    {
      field: 'status',
      label: 'Status',
      type: 'STRING',
      required: false,
      description: CONTRACT_STATUSES.join(', '),
    },
    { field: 'contract_date', label: 'Contract date', type: 'DATE', required: false },
    { field: 'effective_date', label: 'Effective date', type: 'DATE', required: false },
    { field: 'lapse_date', label: 'Lapse date', type: 'DATE', required: false },
    { field: 'revival_date', label: 'Revival date', type: 'DATE', required: false },
  ],
  schema,
  open(ctx: ImportContext) {
    const agents = new Map<number, boolean>();
    const products = new Map<string, number | 'AMBIGUOUS' | undefined>();
    return {
      async prepare(rows) {
        await cachedLookup(
          agents,
          rows.map((r) => r.agent_id),
          (missing) => agentsExist(ctx.db, missing),
          false,
        );
        const key = (r: Row) => `${r.company_code ?? ctx.companyCode ?? ''}\u0000${r.product_code}`;
        await cachedLookup(products, rows.map(key), (missing) => productIds(ctx.db, missing), undefined);
        return rows.map((r): Prepared<Values> => {
          if (!agents.get(r.agent_id)) return rejected('agent_id', `agent ${r.agent_id} does not exist`);
          const productId = products.get(key(r));
          if (productId === undefined)
            return rejected('product_code', `product ${r.product_code} does not exist`);
          if (productId === 'AMBIGUOUS') {
            return rejected(
              'company_code',
              `product code ${r.product_code} exists at several carriers; give company_code`,
            );
          }
          return {
            ok: true,
            values: {
              agent_id: r.agent_id,
              product_id: productId,
              policy_no: r.policy_no,
              contractor_name: r.contractor_name ?? null,
              insured_name: r.insured_name ?? null,
              premium: r.premium,
              pay_cycle: r.pay_cycle,
              pay_period: r.pay_period ?? null,
              coverage_period: r.coverage_period ?? null,
              status: r.status,
              contract_date: r.contract_date ?? null,
              effective_date: r.effective_date ?? null,
              lapse_date: r.lapse_date ?? null,
              revival_date: r.revival_date ?? null,
              created_by: ctx.userId,
              updated_by: ctx.userId,
            },
          };
        });
      },
      copyTable: 'contract',
      async insert(trx, rows) {
        await trx
          .insertInto('contract')
          .values([...rows])
          .execute();
      },
    };
  },
};
