import { applySort, listQuery, moneyColumn, perm, sendSpreadsheet, streamRows, type ServiceApp } from '@csp/service-kit';
import { applyContractFilters, contractBaseQuery, contractFilterShape, contractSortable } from './contract-resource.js';

/** Only the exported columns: this select runs over up to 1,000,000 rows. */
const EXPORT_SELECT = [
  'ct.contract_id',
  'ct.policy_no',
  'ct.agent_id',
  'a.agent_name',
  'o.org_name',
  'ic.company_name',
  'p.product_name',
  'ct.contractor_name',
  'ct.insured_name',
  'ct.premium',
  'pc.code_name as pay_cycle_name',
  'cs.code_name as status_name',
  'ct.contract_date',
  'ct.effective_date',
  'ct.lapse_date',
] as const;

interface ContractExportRow {
  contract_id: number;
  policy_no: string;
  agent_id: number;
  agent_name: string;
  org_name: string;
  company_name: string;
  product_name: string;
  contractor_name: string | null;
  insured_name: string | null;
  premium: string;
  pay_cycle_name: string | null;
  status_name: string | null;
  contract_date: string | null;
  effective_date: string | null;
  lapse_date: string | null;
}

const exportQuery = listQuery(Object.keys(contractSortable), contractFilterShape).omit({ pageNum: true, pageSize: true });

/**
 * GET /api/contracts/excel: the list's filters and sort (same shape and filter function), streamed
 * through a cursor into the kit's spreadsheet writer. CONTRACT_LIST has no EXPORT permission: READ.
 */
export async function registerContractExport(app: ServiceApp): Promise<void> {
  app.get(
    '/api/contracts/excel',
    {
      config: perm('CONTRACT_LIST', 'READ'),
      schema: { tags: ['Contract'], summary: 'Export contracts (xlsx)', querystring: exportQuery },
    },
    async (request, reply) => {
      const q = request.query;
      const base = contractBaseQuery(app.db).select([...EXPORT_SELECT]);
      const qb = applySort(applyContractFilters(base, q), q, { sortable: contractSortable, defaultSort: 'ct.contract_id' });
      return sendSpreadsheet(reply, {
        fileName: 'contracts.xlsx',
        sheetName: 'Contracts',
        columns: [
          { header: 'Contract ID', key: 'contract_id' },
          { header: 'Policy no', key: 'policy_no', width: 18 },
          { header: 'Agent ID', key: 'agent_id' },
          { header: 'Agent', key: 'agent_name' },
          { header: 'Organization', key: 'org_name', width: 20 },
          { header: 'Company', key: 'company_name', width: 20 },
          { header: 'Product', key: 'product_name', width: 25 },
          { header: 'Contractor', key: 'contractor_name' },
          { header: 'Insured', key: 'insured_name' },
          moneyColumn<ContractExportRow>('Premium', 'premium'),
          { header: 'Pay cycle', key: 'pay_cycle_name' },
          { header: 'Status', key: 'status_name' },
          { header: 'Contract date', key: 'contract_date' },
          { header: 'Effective date', key: 'effective_date' },
          { header: 'Lapse date', key: 'lapse_date' },
        ],
        rows: streamRows<ContractExportRow>(app.pool, qb.compile()),
      });
    },
  );
}
