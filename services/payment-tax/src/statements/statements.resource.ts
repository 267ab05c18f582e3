import { defineResource, f, zDate } from '@csp/service-kit';
import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { STATEMENT_TYPES } from './statements.repository.js';

export const STATEMENT_FORMATS = ['XLSX', 'PDF'] as const;
export const STATEMENT_ISSUE_STATUSES = ['GENERATED', 'SENT', 'DOWNLOADED', 'CANCELLED'] as const;

/**
 * Commission statements (spec 2.6): list with CommissionStatementSearchParam (agentId, settleMonth,
 * statementType, issueStatus, fromDate/toDate on the issue date), detail and export; generate,
 * download and cancel are workflows (statements.routes.ts).
 */
export const statementResource = defineResource({
  name: 'CommissionStatement',
  path: '/api/statements',
  table: 'commission_statement',
  alias: 'cs',
  menu: 'STATEMENT',
  tags: ['Statements'],
  baseQuery: (db) => db.selectFrom('commission_statement as cs').leftJoin('agent as a', 'a.agent_id', 'cs.agent_id'),
  fields: {
    statementId: f.id().label('Statement'),
    agentId: f.ref().filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().sort().label('Agent'),
    settleMonth: f.month().filter().sort().label('Settle month'),
    statementType: f.enum(STATEMENT_TYPES).filter().label('Type'),
    statementTypeName: f.codeName('STATEMENT_TYPE', 'statementType').label('Type name'),
    // The parts of gross over the paid settlement rows: they add up to grossAmount.
    recruitTotal: f.money().label('Recruit'),
    maintainTotal: f.money().label('Maintain'),
    overrideTotal: f.money().label('Override'),
    otherTotal: f.money().label('Other commission'),
    correctionTotal: f.money().label('Corrections'),
    exceptionPlus: f.money().label('Exception +'),
    exceptionMinus: f.money().label('Exception -'),
    chargebackTotal: f.money().label('Chargeback'),
    grossAmount: f.money().label('Gross'),
    incomeTaxAmount: f.money().label('Income tax'),
    localTaxAmount: f.money().label('Local tax'),
    vatAmount: f.money().label('VAT'),
    deductionAmount: f.money().label('Deductions'),
    netAmount: f.money().sort().label('Net'),
    fileId: f.ref().label('File'),
    fileFormat: f.enum(STATEMENT_FORMATS).label('Format'),
    issueStatus: f.enum(STATEMENT_ISSUE_STATUSES).filter().label('Issue status'),
    issueStatusName: f.codeName('STATEMENT_STATUS', 'issueStatus').label('Issue status name'),
    issuedAt: f.timestamp().sort().label('Issued at'),
    issuedBy: f.ref().label('Issued by'),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
  dateFilter: 'issuedAt',
  statusField: 'issueStatus',
  agentScope: 'agentId',
  filters: {
    shape: { fromDate: zDate.optional(), toDate: zDate.optional() },
    apply: (qb, q: { fromDate?: string | undefined; toDate?: string | undefined }) => {
      let out = qb;
      if (q.fromDate) out = out.where(sql<SqlBool>`cs.issued_at >= ${q.fromDate}::date`);
      if (q.toDate) out = out.where(sql<SqlBool>`cs.issued_at < ${q.toDate}::date + 1`);
      return out;
    },
  },
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});

export const statementSaveReq = z.object({
  agentId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  settleMonth: z.string().length(6, 'must be exactly 6 characters').regex(/^\d{4}(0[1-9]|1[0-2])$/, 'must be YYYYMM'),
  statementType: z.enum(STATEMENT_TYPES).default('MONTHLY'),
  fileFormat: z.enum(STATEMENT_FORMATS).default('XLSX'),
});
