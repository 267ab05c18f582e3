import { z } from 'zod';
import { zNullableTimestamp, zYN } from '../common/schemas.js';

export const configListQuery = z.object({ configGroup: z.string().max(50).optional() });
export const configKeyParams = z.object({ key: z.string().trim().min(1).max(50) });
export const configUpdateBody = z.object({ value: z.union([z.string().max(4000), z.number()]).transform(String) });

export const configResp = z.object({
  configKey: z.string(),
  configValue: z.string(),
  configGroup: z.string(),
  description: z.string().nullable(),
  isEncrypted: zYN,
  updatedBy: z.number().nullable(),
  updatedAt: zNullableTimestamp,
});
