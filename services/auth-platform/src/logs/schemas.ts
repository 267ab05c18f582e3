import { z } from 'zod';
import { listQuery, zId } from '@csp/service-kit';
import { zNullableTimestamp, zTimestamp } from '../common/schemas.js';
import { API_LOG_SORT, CHANGE_LOG_SORT, LOGIN_LOG_SORT } from './repository.js';

function keys<T extends object>(o: T) {
  return Object.keys(o) as Array<keyof T & string>;
}

export const loginLogQuery = listQuery(keys(LOGIN_LOG_SORT), {
  loginId: z.string().max(50).optional(),
  userId: zId.optional(),
  result: z.enum(['SUCCESS', 'FAIL']).optional(),
});

export const apiLogQuery = listQuery(keys(API_LOG_SORT), {
  userId: zId.optional(),
  uri: z.string().max(1000).optional(),
  method: z.string().max(10).optional(),
  responseCode: z.coerce.number().int().min(100).max(599).optional(),
  serviceName: z.string().max(50).optional(),
});

export const changeLogQuery = listQuery(keys(CHANGE_LOG_SORT), {
  tableName: z.string().max(100).optional(),
  recordId: z.string().max(100).optional(),
  action: z.enum(['CREATE', 'UPDATE', 'DELETE', 'APPROVE']).optional(),
  userId: zId.optional(),
  menuCode: z.string().max(50).optional(),
});

export const loginLogResp = z.object({
  logId: z.number(),
  userId: z.number().nullable(),
  loginId: z.string(),
  loginType: z.string(),
  result: z.string(),
  failReason: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  loginAt: zTimestamp,
});

export const apiLogResp = z.object({
  accessId: z.number(),
  userId: z.number().nullable(),
  requestId: z.string().nullable(),
  serviceName: z.string().nullable(),
  requestUri: z.string(),
  httpMethod: z.string(),
  params: z.string().nullable(),
  responseCode: z.number().nullable(),
  responseTimeMs: z.number().nullable(),
  ipAddress: z.string().nullable(),
  createdAt: zTimestamp,
});

export const changeLogResp = z.object({
  changeId: z.number(),
  userId: z.number().nullable(),
  menuCode: z.string().nullable(),
  tableName: z.string(),
  recordId: z.string().nullable(),
  beforeData: z.unknown(),
  afterData: z.unknown(),
  action: z.string(),
  requestId: z.string().nullable(),
  createdAt: zNullableTimestamp,
});
