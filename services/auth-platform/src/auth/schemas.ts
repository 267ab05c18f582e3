import { z } from 'zod';

export const loginBody = z.object({
  loginId: z.string().trim().min(1, 'is required').max(50),
  password: z.string().min(1, 'is required').max(200),
});

export const refreshBody = z.object({
  refreshToken: z.string().min(1, 'is required').max(200),
});

export const passwordBody = z.object({
  oldPassword: z.string().min(1, 'is required').max(200),
  newPassword: z.string().min(1, 'is required').max(200),
});

// No body at all arrives as null.
export const logoutBody = z.object({ refreshToken: z.string().min(1).max(200).optional() }).nullish();

export const sessionUser = z.object({
  userId: z.number(),
  loginId: z.string(),
  userName: z.string(),
  roleCodes: z.array(z.string()),
  agentId: z.number().nullable(),
});

export const tokenPair = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int(),
  user: sessionUser,
});
