import { sql } from 'kysely';
import { defineResource, f } from '@csp/service-kit';

export const COMPANY_TYPES = ['LIFE', 'NON_LIFE', 'OTHER'] as const;

/**
 * Insurance companies (menu COMPANY: READ/CREATE/UPDATE). No DELETE route: a company is
 * deactivated with PUT|POST /api/companies/{id}/deactivate. company_code is unique (B009).
 */
export const companyResource = defineResource({
  name: 'Company',
  path: '/api/companies',
  table: 'insurance_company',
  alias: 'ic',
  menu: 'COMPANY',
  tags: ['Insurance company'],
  fields: {
    companyId: f.id().label('Company ID'),
    companyCode: f.code({ max: 20 }).required().sort().search().label('Code'),
    companyName: f.text({ max: 100 }).required().sort().search().label('Name').export({ width: 25 }),
    companyType: f.enum(COMPANY_TYPES).save().filter().label('Type'),
    bizNo: f
      .text({ pattern: /^\d{3}-?\d{2}-?\d{5}$/, patternMessage: 'must be a business number like 123-45-67890' })
      .save()
      .label('Business no'),
    contactName: f.text({ max: 100 }).save().label('Contact'),
    contactPhone: f.phone().save().label('Contact phone'),
    contactEmail: f.email().save().label('Contact e-mail').export({ width: 25 }),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    productCount: f.computed(sql`(select count(*) from product p where p.company_id = ic.company_id)`, 'int').nullable(false).label('Products'),
    version: f.version().export(false),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'companyCode',
  delete: false,
});
