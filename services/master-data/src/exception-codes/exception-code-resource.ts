import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, invalid, isoTimestamp } from '@csp/service-kit';
import { codeName, insertAudit, updateAudit, zBoolFilter } from '../rule-support.js';

export const MENU_EXCEPTION = 'RULE_EXCEPTION';

const zYN = z.enum(['Y', 'N']);

export const exceptionCodeSaveReq = z.object({
  /** The key the ledgers use; fixed once created (a different value on update is E411). */
  exceptionCode: z.string().trim().min(1).max(30).regex(/^[A-Z0-9_]+$/, 'upper-case letters, digits and _ only'),
  exceptionName: z.string().trim().min(1).max(100),
  category: z.string().trim().min(1).max(30),
  direction: z.enum(['PLUS', 'MINUS']),
  autoCalcYn: zYN.default('N'),
  approvalRequired: zYN.default('Y'),
  taxIncluded: zYN.default('Y'),
  description: z.string().trim().max(500).nullable().optional(),
  isActive: z.boolean().default(true),
  sortOrder: z.number().int().min(0).max(99999).default(0),
});
type ExceptionCodeSaveReq = z.output<typeof exceptionCodeSaveReq>;

export const exceptionCodeResp = z.object({
  exceptionId: z.number().int(),
  exceptionCode: z.string(),
  exceptionName: z.string(),
  category: z.string(),
  direction: z.enum(['PLUS', 'MINUS']),
  directionName: z.string().nullable(),
  autoCalcYn: zYN,
  approvalRequired: zYN,
  taxIncluded: zYN,
  description: z.string().nullable(),
  isActive: z.boolean(),
  sortOrder: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface ExceptionCodeRow {
  exception_id: number;
  exception_code: string;
  exception_name: string;
  category: string;
  direction: 'PLUS' | 'MINUS';
  direction_name: string | null;
  auto_calc_yn: 'Y' | 'N';
  approval_required: 'Y' | 'N';
  tax_included: 'Y' | 'N';
  description: string | null;
  is_active: boolean;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: ExceptionCodeSaveReq) => ({
  exception_name: b.exceptionName,
  category: b.category,
  direction: b.direction,
  auto_calc_yn: b.autoCalcYn,
  approval_required: b.approvalRequired,
  tax_included: b.taxIncluded,
  description: b.description ?? null,
  is_active: b.isActive,
  sort_order: b.sortOrder,
});

/**
 * Exception type codes (RULE_EXCEPTION: READ/CREATE/UPDATE). No DELETE: a code is deactivated with
 * an update setting isActive false. Paths use the surrogate exception_id; a duplicate code is B009.
 */
export const exceptionCodeResource = defineResource({
  name: 'ExceptionCode',
  basePath: '/api/exception-codes',
  table: 'exception_type_code',
  idColumn: 'etc.exception_id',
  menu: MENU_EXCEPTION,
  tags: ['Exception type code'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('exception_type_code as etc')
      .select((eb) => codeName('EXCEPTION_DIRECTION', eb.ref('etc.direction')).as('direction_name')),
  columns: [
    'etc.exception_id',
    'etc.exception_code',
    'etc.exception_name',
    'etc.category',
    'etc.direction',
    'etc.auto_calc_yn',
    'etc.approval_required',
    'etc.tax_included',
    'etc.description',
    'etc.is_active',
    'etc.sort_order',
    'etc.created_at',
    'etc.updated_at',
  ],
  respSchema: exceptionCodeResp,
  toResp: (r: ExceptionCodeRow) => ({
    exceptionId: r.exception_id,
    exceptionCode: r.exception_code,
    exceptionName: r.exception_name,
    category: r.category,
    direction: r.direction,
    directionName: r.direction_name,
    autoCalcYn: r.auto_calc_yn,
    approvalRequired: r.approval_required,
    taxIncluded: r.tax_included,
    description: r.description,
    isActive: r.is_active,
    sortOrder: r.sort_order,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: exceptionCodeSaveReq,
  validate: (b, _ctx, existing) => {
    if (existing && existing.exception_code !== b.exceptionCode) {
      throw invalid('exceptionCode', `cannot be changed (is ${String(existing.exception_code)})`);
    }
  },
  toInsert: (b, ctx) => ({ exception_code: b.exceptionCode, ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      direction: z.enum(['PLUS', 'MINUS']).optional(),
      category: z.string().trim().max(30).optional(),
      autoCalcYn: zYN.optional(),
      isActive: zBoolFilter.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.direction) q = q.where('etc.direction', '=', f.direction);
      if (f.category) q = q.where('etc.category', '=', f.category);
      if (f.autoCalcYn) q = q.where('etc.auto_calc_yn', '=', f.autoCalcYn);
      if (f.isActive !== undefined) q = q.where('etc.is_active', '=', f.isActive);
      return q;
    },
  },
  sortable: {
    exceptionCode: 'etc.exception_code',
    exceptionName: 'etc.exception_name',
    category: 'etc.category',
    sortOrder: 'etc.sort_order',
  },
  defaultSort: 'etc.sort_order',
  searchable: { exceptionCode: 'etc.exception_code', exceptionName: 'etc.exception_name' },
  delete: false,
  exportPerm: 'READ',
  exportColumns: [
    { header: 'Code', key: 'exception_code' },
    { header: 'Name', key: 'exception_name', width: 25 },
    { header: 'Category', key: 'category' },
    { header: 'Direction', key: 'direction' },
    { header: 'Auto calc', key: 'auto_calc_yn' },
    { header: 'Approval required', key: 'approval_required' },
    { header: 'Tax included', key: 'tax_included' },
    { header: 'Active', key: 'is_active', value: (r: ExceptionCodeRow) => (r.is_active ? 'Y' : 'N') },
    { header: 'Description', key: 'description', width: 40 },
  ],
});
