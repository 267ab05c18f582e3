import { sql } from 'kysely';
import { COMMISSION_TYPE_CODES, YN_VALUES } from '@csp/db';
import { AppError, defineResource, f } from '@csp/service-kit';

export const MENU_COMM_TYPE = 'COMM_TYPE';

/** Rule 1.2.4 counts these in gross and tax whatever a setting says: they stay active, taxable and in gross. */
const RULE4_TYPES: readonly string[] = ['RECRUIT', 'MAINTAIN', 'OVERRIDE'];
const BUILT_IN: readonly string[] = COMMISSION_TYPE_CODES;

export function isBuiltInType(code: string): boolean {
  return BUILT_IN.includes(code);
}

/**
 * commission_type (COMM_TYPE): the nine built-in types of the commission master and their settings. is_active:
 * calcOtherCommission computes only active types and the aggregate counts only active ones; gross_yn = 'N': the
 * type's amounts stay in the commission master but not in other_total/gross; taxable_yn is shown and cannot be
 * set to 'N' yet (withholding applies to the whole gross, rule 5). Built-in codes cannot be created or deleted.
 */
export const commissionTypeResource = defineResource({
  name: 'CommissionType',
  path: '/api/commission-types',
  table: 'commission_type',
  alias: 'ct',
  menu: MENU_COMM_TYPE,
  tags: ['Commission types'],
  delete: false,
  partialUpdate: true,
  fields: {
    typeId: f.id().label('ID'),
    typeCode: f.code({ max: 20 }).required().createOnly().nullable(false).sort().filter().label('Code'),
    typeName: f.text({ max: 100 }).required().nullable(false).sort().search().label('Name').export({ width: 26 }),
    description: f.text({ max: 1000 }).save().label('Description').export({ width: 40 }),
    sourceTable: f.code({ max: 50 }).save({ default: 'commission_master' }).createOnly().label('Source'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    taxableYn: f.enum(YN_VALUES).save({ default: 'Y' }).filter().label('Taxable'),
    grossYn: f.enum(YN_VALUES).save({ default: 'Y' }).filter().label('In gross'),
    sortOrder: f.int({ min: 0, max: 100_000 }).save({ default: 0 }).sort().label('Sort order'),
    builtIn: f
      .computed(sql`ct.type_code IN (${sql.join(BUILT_IN.map((c) => sql.lit(c)))})`, 'bool')
      .nullable(false)
      .label('Built-in'),
    version: f.version().export(false),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'sortOrder',
  validate: (body, _ctx, existing) => {
    if (!existing) {
      if (isBuiltInType(String(body.typeCode).toUpperCase())) {
        throw new AppError('BAD_REQUEST', `${String(body.typeCode)} is a built-in commission type: it exists already and cannot be created`);
      }
      return;
    }
    const code = String(existing.type_code);
    if (body.taxableYn === 'N' && existing.taxable_yn !== 'N') {
      // payment-tax withholds on the whole gross (rule 5); a non-taxable part would need its own tax base there
      throw new AppError(
        'BAD_REQUEST',
        `${code}: a non-taxable commission type is not supported yet (withholding applies to the whole gross); set grossYn = 'N' to leave it out of gross instead`,
      );
    }
    if (
      RULE4_TYPES.includes(code) &&
      (body.isActive === false || body.grossYn === 'N' || body.taxableYn === 'N')
    ) {
      throw new AppError(
        'BAD_REQUEST',
        `${code} is counted in gross and taxed by rule 1.2.4: it cannot be deactivated or taken out of gross or tax`,
      );
    }
  },
});
