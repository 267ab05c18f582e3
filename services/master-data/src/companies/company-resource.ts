import { z } from 'zod';
import { defineResource, isoTimestamp } from '@csp/service-kit';
import type { Kysely } from 'kysely';
import { insertAudit, updateAudit } from '../people-db.js';
import { zBoolQuery } from '../orgs/org-schemas.js';

export const COMPANY_TYPES = ['LIFE', 'NON_LIFE', 'OTHER'] as const;
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const companySaveReq = z.object({
  companyCode: z.string().trim().min(1).max(20).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only'),
  companyName: z.string().trim().min(1).max(100),
  companyType: z.enum(COMPANY_TYPES).nullable().optional(),
  bizNo: z.string().trim().regex(/^\d{3}-?\d{2}-?\d{5}$/, 'must be a business number like 123-45-67890').nullable().optional(),
  contactName: optionalText(100),
  contactPhone: z.string().trim().regex(/^\d{2,3}-?\d{3,4}-?\d{4}$/, 'must be a phone number').nullable().optional(),
  contactEmail: z.string().trim().max(200).pipe(z.email()).nullable().optional(),
  isActive: z.boolean().default(true),
});

export const companyResp = z.object({
  companyId: z.number().int(),
  companyCode: z.string(),
  companyName: z.string(),
  companyType: z.enum(COMPANY_TYPES).nullable(),
  bizNo: z.string().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  isActive: z.boolean(),
  productCount: z.number().int(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface CompanyRow {
  company_id: number;
  company_code: string;
  company_name: string;
  company_type: 'LIFE' | 'NON_LIFE' | 'OTHER' | null;
  biz_no: string | null;
  contact_name: string | null;
  contact_phone: string | null;
  contact_email: string | null;
  is_active: boolean;
  product_count: number;
  version: number;
  created_at: Date;
  updated_at: Date;
}

type CompanySave = z.output<typeof companySaveReq>;
const columnsOf = (b: CompanySave) => ({
  company_code: b.companyCode,
  company_name: b.companyName,
  company_type: b.companyType ?? null,
  biz_no: b.bizNo ?? null,
  contact_name: b.contactName ?? null,
  contact_phone: b.contactPhone ?? null,
  contact_email: b.contactEmail ?? null,
  is_active: b.isActive,
});

/**
 * Insurance companies (menu COMPANY: READ/CREATE/UPDATE). No DELETE route: a company is
 * deactivated with PUT /api/companies/{id}/deactivate. company_code is unique (B009).
 */
export const companyResource = defineResource({
  name: 'Company',
  basePath: '/api/companies',
  table: 'insurance_company',
  idColumn: 'ic.company_id',
  menu: 'COMPANY',
  tags: ['Insurance company'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('insurance_company as ic')
      .select((eb) =>
        eb.selectFrom('product as p').select(eb.fn.countAll<number>().as('n')).whereRef('p.company_id', '=', 'ic.company_id').as('product_count'),
      ),
  columns: [
    'ic.company_id',
    'ic.company_code',
    'ic.company_name',
    'ic.company_type',
    'ic.biz_no',
    'ic.contact_name',
    'ic.contact_phone',
    'ic.contact_email',
    'ic.is_active',
    'ic.version',
    'ic.created_at',
    'ic.updated_at',
  ],
  respSchema: companyResp,
  toResp: (r: CompanyRow) => ({
    companyId: r.company_id,
    companyCode: r.company_code,
    companyName: r.company_name,
    companyType: r.company_type,
    bizNo: r.biz_no,
    contactName: r.contact_name,
    contactPhone: r.contact_phone,
    contactEmail: r.contact_email,
    isActive: r.is_active,
    productCount: Number(r.product_count),
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: companySaveReq,
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: { companyType: z.enum(COMPANY_TYPES).optional(), isActive: zBoolQuery.optional() },
    apply: (qb, f) => {
      let q = qb;
      if (f.companyType) q = q.where('ic.company_type', '=', f.companyType);
      if (f.isActive !== undefined) q = q.where('ic.is_active', '=', f.isActive);
      return q;
    },
  },
  sortable: { companyId: 'ic.company_id', companyCode: 'ic.company_code', companyName: 'ic.company_name' },
  defaultSort: 'ic.company_code',
  searchable: { companyCode: 'ic.company_code', companyName: 'ic.company_name' },
  versionColumn: 'ic.version',
  delete: false,
  exportPerm: 'READ',
  exportColumns: [
    { header: 'Company ID', key: 'company_id' },
    { header: 'Code', key: 'company_code' },
    { header: 'Name', key: 'company_name', width: 25 },
    { header: 'Type', key: 'company_type' },
    { header: 'Business no', key: 'biz_no' },
    { header: 'Contact', key: 'contact_name' },
    { header: 'Contact phone', key: 'contact_phone' },
    { header: 'Contact e-mail', key: 'contact_email', width: 25 },
    { header: 'Active', key: 'is_active', value: (r: CompanyRow) => (r.is_active ? 'Y' : 'N') },
    { header: 'Products', key: 'product_count' },
  ],
});
