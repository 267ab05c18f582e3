import type { Insertable } from 'kysely';
import type { z } from 'zod';
import { CONTRACT_STATUSES, PAY_CYCLES, type ContractTable } from '@csp/db';
import { contractFields } from '@csp/field-tables';
import {
  cachedLookup,
  rejected,
  type ImportContext,
  type ImportTarget,
  type Prepared,
  type TargetField,
} from './target.js';
import { text } from './cells.js';
import { ownerRowSchema, type OwnerRow, type SaveBody } from './owner-body.js';
import { ownerColumns } from './owner-columns.js';
import { agentStatuses, productIds, type ProductRef } from './references.js';

type Body = SaveBody<
  typeof contractFields,
  'policyNo' | 'agentId' | 'premium' | 'payCycle' | 'status',
  | 'contractorName'
  | 'insuredName'
  | 'payPeriod'
  | 'coveragePeriod'
  | 'contractDate'
  | 'effectiveDate'
  | 'lapseDate'
  | 'revivalDate'
>;
/** Import-only fields: the product by code (the owner's body takes its id). */
const extra = { product_code: text(30, true), company_code: text(20) };
type Row = OwnerRow<Body, z.output<z.ZodObject<typeof extra>>>;
type Values = Insertable<ContractTable>;

const FIELDS: TargetField[] = [
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
];

const OWNER_BODY = {
  owner: { name: 'Contract', path: '/api/contracts', table: 'contract', menu: 'CONTRACT_LIST', fields: contractFields },
  fields: FIELDS.map((f) => f.field),
  // the product comes from product_code (and the carrier) in prepare
  resolved: { productId: 'product_code' },
  extra,
};
const rowSchema = ownerRowSchema<Body, typeof extra>(OWNER_BODY);
const toColumns = ownerColumns<Body, Values>(OWNER_BODY);

/**
 * contract (master-data, POST /api/contracts): each row is checked by the owner's save schema
 * (@csp/field-tables contractFields), then like its validate hook: lapse/revival dates of the
 * status, the agent exists and has not retired, the product exists and is on sale; policy numbers
 * are unique (the database's key).
 */
export const contractTarget: ImportTarget<Row, Values> = {
  table: 'contract',
  label: 'Contracts',
  owner: 'master-data',
  permission: { menu: 'CONTRACT_LIST', perm: 'CREATE' },
  fields: FIELDS,
  rowSchema,
  open(ctx: ImportContext) {
    const agents = new Map<number, string | undefined>();
    const products = new Map<string, ProductRef | 'AMBIGUOUS' | undefined>();
    return {
      async prepare(rows) {
        await cachedLookup(
          agents,
          rows.map((r) => r.body.agentId),
          (missing) => agentStatuses(ctx.db, missing),
          undefined,
        );
        const key = (r: Row) => `${r.extra.company_code ?? ctx.companyCode ?? ''}\u0000${r.extra.product_code}`;
        await cachedLookup(products, rows.map(key), (missing) => productIds(ctx.db, missing), undefined);
        return rows.map((r): Prepared<Values> => {
          const b = r.body;
          // the checks of the owner's validate hook (contracts.resource.ts), batched
          if (b.status === 'LAPSE' && !b.lapseDate) return rejected('lapse_date', 'is required when status is LAPSE');
          if (b.status === 'REVIVE' && !b.revivalDate)
            return rejected('revival_date', 'is required when status is REVIVE');
          const agent = agents.get(b.agentId);
          if (agent === undefined) return rejected('agent_id', `agent ${b.agentId} does not exist`);
          if (agent === 'LEAVE') return rejected('agent_id', 'the agent has retired');
          const product = products.get(key(r));
          if (product === undefined) return rejected('product_code', `product ${r.extra.product_code} does not exist`);
          if (product === 'AMBIGUOUS') {
            return rejected(
              'company_code',
              `product code ${r.extra.product_code} exists at several carriers; give company_code`,
            );
          }
          if (!product.active) return rejected('product_code', 'the product is inactive');
          return {
            ok: true,
            values: toColumns(b, ctx.cipher, {
              product_id: product.productId,
              created_by: ctx.userId,
              updated_by: ctx.userId,
            }),
          };
        });
      },
      copyTable: 'contract',
    };
  },
};
