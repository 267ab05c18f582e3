import { z } from 'zod';
import { listQuery } from '@csp/service-kit';
import { zCodeKey, zOptionalText, zText, zTimestamp, zYN } from '../common/schemas.js';

export const DOMAIN_CATEGORIES = [
  'IDENTIFIER',
  'PII',
  'MONEY',
  'RATE',
  'DATE',
  'CODE',
  'TEXT',
  'JSON',
  'AUDIT',
  'WORKFLOW',
  'SETTLEMENT_BIZ',
  'FILE',
  'TAX',
  'BANKING',
  'PROFILE',
  'RESUME',
] as const;

export const DOMAIN_SORT = {
  domainCode: 'd.domain_code',
  domainName: 'd.domain_name',
  category: 'd.category',
  createdAt: 'd.created_at',
} as const;

export const domainListQuery = listQuery(Object.keys(DOMAIN_SORT) as Array<keyof typeof DOMAIN_SORT>, {
  domainCategory: z.enum(DOMAIN_CATEGORIES).optional(),
  domainCode: z.string().max(50).optional(),
  domainName: z.string().max(100).optional(),
  isActive: zYN.optional(),
});

export const domainParams = z.object({ id: zCodeKey(50) });

export const domainResp = z.object({
  domainCode: z.string(),
  domainName: z.string(),
  category: z.string(),
  dataType: z.string(),
  length: z.number().nullable(),
  precision: z.number().nullable(),
  scale: z.number().nullable(),
  formatPattern: z.string().nullable(),
  validationRegex: z.string().nullable(),
  maskingType: z.string().nullable(),
  encrypted: zYN,
  description: z.string().nullable(),
  isActive: zYN,
  usageCount: z.number(),
  createdAt: zTimestamp,
  updatedAt: zTimestamp,
});

const zSize = z.number().int().min(0).max(100_000).nullish();

const writable = {
  domainName: zText(100),
  category: z.enum(DOMAIN_CATEGORIES),
  dataType: zText(30),
  length: zSize,
  precision: zSize,
  scale: zSize,
  formatPattern: zOptionalText(100),
  validationRegex: zOptionalText(500),
  maskingType: zOptionalText(30),
  encrypted: zYN.optional(),
  description: zOptionalText(500),
  isActive: zYN.optional(),
};

export const domainCreateBody = z.object({ domainCode: zCodeKey(50), ...writable });
/** The domain code is the path key; an update replaces every other field. */
export const domainUpdateBody = z.object(writable);

export const optionResp = z.object({ value: z.string(), label: z.string(), category: z.string() });
