import { z } from 'zod';
import { zId, zMoney, zSettleMonth } from '@csp/service-kit';

/**
 * The body of ledger-settlement's exception register (POST /api/ledger/exception): the exception
 * ledger is a read-only resource whose rows are registered by this workflow body.
 */
export const exceptionRegisterReq = z
  .object({
    agentId: zId,
    settleMonth: zSettleMonth,
    exceptionCode: z.string().trim().min(1).max(30),
    amount: zMoney.refine((v) => !v.startsWith('-') && !/^0*(\.0*)?$/.test(v), 'must be greater than 0'),
    reason: z.string().trim().min(1).max(1000),
    contractId: zId.optional(),
    recurringYn: z.enum(['Y', 'N']).default('N'),
    recurringUntil: zSettleMonth.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.recurringYn === 'Y' && !b.recurringUntil) {
      ctx.addIssue({
        code: 'custom',
        path: ['recurringUntil'],
        message: 'is required when recurringYn is Y',
      });
    }
    if (b.recurringUntil && b.recurringUntil < b.settleMonth) {
      ctx.addIssue({ code: 'custom', path: ['recurringUntil'], message: 'must not be before settleMonth' });
    }
  });
