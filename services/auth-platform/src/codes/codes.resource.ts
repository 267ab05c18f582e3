import { sql } from 'kysely';
import { z } from 'zod';
import { CODE_TONES, YN_VALUES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';
import { codeKey, optionalText } from '../common/fields.js';

export const CODE_MENU = 'SYSTEM_CODE';

/**
 * Common-code groups (menu SYSTEM_CODE): the paged list through the kit. The group code is the
 * path key, so the detail (with its codes) and the writes (system-group lock, cache) are workflows.
 */
export const codeGroupResource = defineResource({
  name: 'CodeGroup',
  path: '/api/common/codes/groups',
  table: 'common_code_group',
  alias: 'g',
  menu: CODE_MENU,
  tags: ['common-codes'],
  fields: {
    groupCode: codeKey(20).key().required().createOnly().search().filter('like'),
    groupName: f.text({ max: 100 }).required().sort().search().filter('like'),
    description: optionalText(500),
    isSystem: f.enum(YN_VALUES).save({ default: 'N' }).createOnly().filter(),
    isActive: f.bool().save({ default: true }).filter(),
    sortOrder: f.int({ min: 0, max: 100000 }).save({ default: 0 }).sort(),
    codeCount: f.computed(sql`(select count(*)::int from common_code c where c.group_code = g.group_code)`, 'int').nullable(false),
    createdAt: f.createdAt().sort(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'sortOrder',
  partialUpdate: true,
  create: false,
  update: false,
  detail: false,
  delete: false,
  export: false,
});

/** The codes of a group; read through their group (detail, active list), written under its path. */
export const codeResource = defineResource({
  name: 'Code',
  path: '/api/common/codes/groups/:groupCode/codes',
  table: 'common_code',
  alias: 'c',
  menu: CODE_MENU,
  tags: ['common-codes'],
  fields: {
    codeId: f.id(),
    groupCode: f.text().nullable(false),
    code: codeKey(30).required().createOnly(),
    codeName: f.text({ max: 100 }).required().label('코드명(한국어)', 'Korean name'),
    codeNameEn: optionalText(100).label('코드명(영어)', 'English name'),
    codeDesc: optionalText(500),
    attr1: optionalText(100),
    attr2: optionalText(100),
    attr3: optionalText(100),
    refCode: optionalText(30),
    sortOrder: f.int({ min: 0, max: 100000 }).save({ default: 0 }),
    isActive: f.bool().save({ default: true }),
    tone: f.enum(CODE_TONES).save({ default: 'plain' }).label('표시 색', 'Tone'),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  partialUpdate: true,
});

/** A code as pick lists show it (the cached active list). */
const { code, codeName, codeNameEn, codeDesc, attr1, attr2, attr3, refCode, sortOrder, tone } = codeResource.schemas.response.shape;
export const codeItem = z.object({ code, codeName, codeNameEn, codeDesc, attr1, attr2, attr3, refCode, sortOrder, tone });

export const groupDetail = z.object({ ...codeGroupResource.schemas.response.shape, codes: z.array(codeResource.schemas.response) });

const groupCode = codeGroupResource.schemas.save.shape.groupCode as z.ZodType<string>;
export const groupParams = z.object({ groupCode });
export const codeParams = z.object({ groupCode, code: codeResource.schemas.save.shape.code as z.ZodType<string> });
