import { defineResource, f, invalid } from '@csp/service-kit';
import { EXCEPTION_DIRECTIONS, YN_VALUES } from '@csp/db';

/**
 * Exception type codes (RULE_EXCEPTION: READ/CREATE/UPDATE). No DELETE: a code is deactivated with
 * an update setting isActive false. Paths use the surrogate exception_id; a duplicate code is B009.
 * Field order = export column order.
 */
export const exceptionCodeResource = defineResource({
  name: 'ExceptionCode',
  path: '/api/exception-codes',
  table: 'exception_type_code',
  alias: 'etc',
  menu: 'RULE_EXCEPTION',
  tags: ['Exception type code'],
  fields: {
    exceptionId: f.id().export(false),
    exceptionCode: f
      .text({ max: 30, pattern: /^[A-Z0-9_]+$/, patternMessage: 'upper-case letters, digits and _ only' })
      .required()
      .sort()
      .search()
      .describe('The key the ledgers use; fixed once created (a different value on update is E411).')
      .label('Code'),
    exceptionName: f.text({ max: 100 }).required().sort().search().label('Name').export({ width: 25 }),
    category: f.text({ max: 30 }).required().sort().filter().label('Category'),
    direction: f.enum(EXCEPTION_DIRECTIONS).required().filter().label('Direction'),
    directionName: f.codeName('EXCEPTION_DIRECTION', 'direction').export(false),
    autoCalcYn: f.enum(YN_VALUES).save({ default: 'N' }).filter().label('Auto calc'),
    approvalRequired: f.enum(YN_VALUES).save({ default: 'Y' }).label('Approval required'),
    taxIncluded: f.enum(YN_VALUES).save({ default: 'Y' }).label('Tax included'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    description: f.text({ max: 500 }).save().label('Description').export({ width: 40 }),
    sortOrder: f.int({ min: 0, max: 99999 }).save({ default: 0 }).sort().export(false),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'sortOrder',
  delete: false,
  validate: (b, _ctx, existing) => {
    if (existing && existing.exception_code !== b.exceptionCode) {
      throw invalid('exceptionCode', `cannot be changed (is ${String(existing.exception_code)})`);
    }
  },
});
