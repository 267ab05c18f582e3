import { z } from 'zod';
import { listQuery, zId } from '@csp/service-kit';
import { zNullableTimestamp, zText, zTimestamp } from '../common/schemas.js';

export const USER_STATUSES = ['ACTIVE', 'LOCKED', 'RETIRED', 'EXPIRED'] as const;
const zStatus = z.enum(USER_STATUSES);

export const USER_SORT = {
  userId: 'users.user_id',
  loginId: 'users.login_id',
  userName: 'users.user_name',
  status: 'users.status',
  lastLoginAt: 'users.last_login_at',
  createdAt: 'users.created_at',
} as const;

export const userListQuery = listQuery(Object.keys(USER_SORT) as Array<keyof typeof USER_SORT>, {
  loginId: z.string().max(50).optional(),
  userName: z.string().max(100).optional(),
  roleCode: z.string().max(30).optional(),
  agentId: zId.optional(),
});

export const userIdParams = z.object({ id: zId });

const userFields = {
  userId: z.number(),
  loginId: z.string(),
  userName: z.string(),
  agentId: z.number().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: zStatus,
  failCount: z.number(),
  lastLoginAt: zNullableTimestamp,
  passwordChangedAt: zNullableTimestamp,
  createdAt: zTimestamp,
  updatedAt: zTimestamp,
};

export const userListItem = z.object({ ...userFields, roleCodes: z.array(z.string()) });

export const userDetail = z.object({
  ...userFields,
  roleCodes: z.array(z.string()),
  roles: z.array(z.object({ roleId: z.number(), roleCode: z.string(), roleName: z.string() })),
});

const zEmail = z.email('must be an e-mail address').max(200).nullish().or(z.literal('').transform(() => null));
const zPhone = z
  .string()
  .trim()
  .regex(/^[0-9+\-() ]{0,30}$/, 'must be a phone number')
  .nullish()
  .transform((v) => (v === '' ? null : v));

export const userCreateBody = z.object({
  loginId: z.string().trim().regex(/^[A-Za-z0-9._@-]{3,50}$/, 'must be 3-50 letters, digits or . _ @ -'),
  password: z.string().min(1, 'is required').max(200),
  userName: zText(100),
  agentId: zId.nullish(),
  email: zEmail,
  phone: zPhone,
  status: zStatus.optional(),
  roleIds: z.array(zId).max(50).optional(),
});

export const userUpdateBody = z.object({
  userName: zText(100).optional(),
  agentId: zId.nullish(),
  email: zEmail,
  phone: zPhone,
  status: zStatus.optional(),
});

export const passwordResetBody = z.object({ newPassword: z.string().min(1).max(200).optional() }).nullish();

export const passwordResetResult = z.object({ temporaryPassword: z.string().optional() });

export const roleAssignBody = z.object({ roleIds: z.array(zId).max(50) });

export const idResult = z.object({ id: z.number() });

