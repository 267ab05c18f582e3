import { z } from 'zod';
import { listQuery } from '@csp/service-kit';
import { zCodeKey, zOptionalText, zQueryBool, zText, zTimestamp, zYN } from '../common/schemas.js';

export const GROUP_SORT = {
  groupCode: 'g.group_code',
  groupName: 'g.group_name',
  sortOrder: 'g.sort_order',
  createdAt: 'g.created_at',
} as const;

export const groupListQuery = listQuery(Object.keys(GROUP_SORT) as Array<keyof typeof GROUP_SORT>, {
  groupCode: z.string().max(20).optional(),
  groupName: z.string().max(100).optional(),
  isSystem: zYN.optional(),
  isActive: zQueryBool.optional(),
});

export const groupParams = z.object({ groupCode: zCodeKey(20) });
export const codeParams = z.object({ groupCode: zCodeKey(20), code: zCodeKey(30) });

export const codeItem = z.object({
  code: z.string(),
  codeName: z.string(),
  codeNameEn: z.string().nullable(),
  codeDesc: z.string().nullable(),
  attr1: z.string().nullable(),
  attr2: z.string().nullable(),
  attr3: z.string().nullable(),
  refCode: z.string().nullable(),
  sortOrder: z.number(),
});

export const groupResp = z.object({
  groupCode: z.string(),
  groupName: z.string(),
  description: z.string().nullable(),
  isSystem: zYN,
  isActive: z.boolean(),
  sortOrder: z.number(),
  codeCount: z.number(),
  createdAt: zTimestamp,
  updatedAt: zTimestamp,
});

export const codeResp = codeItem.extend({
  codeId: z.number(),
  groupCode: z.string(),
  isActive: z.boolean(),
  createdAt: zTimestamp,
  updatedAt: zTimestamp,
});

export const groupDetail = groupResp.extend({ codes: z.array(codeResp) });

const groupWritable = {
  groupName: zText(100),
  description: zOptionalText(500),
  isActive: z.boolean().optional(),
  sortOrder: z.number().int().min(0).max(100000).optional(),
};

export const groupCreateBody = z.object({ groupCode: zCodeKey(20), ...groupWritable, isSystem: zYN.optional() });

/** The group code is the path key: an update never changes it. */
export const groupUpdateBody = z.object({ ...groupWritable, groupName: groupWritable.groupName.optional() });

const codeWritable = {
  codeName: zText(100),
  codeNameEn: zOptionalText(100),
  codeDesc: zOptionalText(500),
  attr1: zOptionalText(100),
  attr2: zOptionalText(100),
  attr3: zOptionalText(100),
  refCode: zOptionalText(30),
  sortOrder: z.number().int().min(0).max(100000).optional(),
  isActive: z.boolean().optional(),
};

export const codeCreateBody = z.object({ code: zCodeKey(30), ...codeWritable });
export const codeUpdateBody = z.object({ ...codeWritable, codeName: codeWritable.codeName.optional() });

export const idResult = z.object({ id: z.number() });
