import { defineResource, f, invalid, requireRow } from '@csp/service-kit';
import { INSURANCE_TYPES, PRODUCT_GROUPS } from '@csp/db';

/**
 * Products (menu PRODUCT: READ/CREATE/UPDATE/DELETE). (company_id, product_code) is unique (B009).
 * DELETE is a hard delete of an unreferenced product; a product that contracts or commission
 * rates refer to is refused by its foreign keys (E400) and is retired with isActive=false instead.
 */
export const productResource = defineResource({
  name: 'Product',
  path: '/api/products',
  table: 'product',
  alias: 'p',
  menu: 'PRODUCT',
  tags: ['Product'],
  baseQuery: (db) => db.selectFrom('product as p').innerJoin('insurance_company as ic', 'ic.company_id', 'p.company_id'),
  fields: {
    productId: f.id().label('Product ID'),
    companyId: f.ref().required().filter().export(false),
    companyCode: f.joined('ic.company_code', 'code').nullable(false).export(false),
    companyName: f.joined('ic.company_name', 'text').nullable(false).sort().search().label('Company').export({ width: 20 }),
    productCode: f.text({ max: 30 }).required().sort().search().label('Product code'),
    productName: f.text({ max: 200 }).required().sort().search().label('Product name').export({ width: 30 }),
    insuranceType: f.enum(INSURANCE_TYPES).required().filter().export(false),
    insuranceTypeName: f.codeName('INSURANCE_TYPE', 'insuranceType').label('Insurance type'),
    productGroup: f.enum(PRODUCT_GROUPS).save().filter().export(false),
    productGroupName: f.codeName('PRODUCT_CATEGORY', 'productGroup').label('Category'),
    payPeriodType: f.enum(['YEAR', 'AGE', 'LIFETIME', 'SINGLE']).save().label('Pay period type'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    launchDate: f.date().save().sort().label('Launch date'),
    endDate: f.date().save().label('End date'),
    version: f.version().export(false),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'productId',
  dateFilter: 'launchDate',
  validate: async (b, ctx) => {
    if (b.launchDate && b.endDate && b.endDate < b.launchDate) throw invalid('endDate', 'must not be before launchDate');
    await requireRow(ctx.trx, 'insurance_company', 'company_id', b.companyId, 'companyId', 'company');
  },
});
