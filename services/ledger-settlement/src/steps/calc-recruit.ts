import { defineStep } from '@csp/batch';
import { ensureMonthPartitions } from '@csp/db';
import { firstDayOfMonth, isDateInSettleMonth, lastDayOfMonth } from '@csp/domain';
import { sql } from 'kysely';
import {
  planContractChunks,
  runCommissionChunk,
  type CommissionStepSpec,
} from '../calc/commission-step.js';
import { pricingOf } from '../calc/pricing.js';

/** Rule 1.2.2: contracts dated inside the settle month, commission year 1, the recruiting agent. */
const recruitSpec: CommissionStepSpec = {
  kind: 'RECRUIT',
  table: 'recruit_ledger',
  candidates: (month) =>
    sql`c.contract_date BETWEEN ${firstDayOfMonth(month)}::date AND ${lastDayOfMonth(month)}::date`,
  decide: (contract, month) =>
    contract.contract_date !== null && isDateInSettleMonth(contract.contract_date, month)
      ? { commissionYear: 1, agentId: contract.agent_id, succession: undefined }
      : undefined,
};

export const calcRecruit = defineStep({
  name: 'calcRecruit',
  // The run's month hook: the month's partitions exist before the ledger steps write (issue 27); idempotent.
  plan: async (ctx) => {
    await ensureMonthPartitions(ctx.db, ctx.settleMonth);
    return planContractChunks(ctx, recruitSpec);
  },
  run: async (ctx, chunk) => {
    if (!chunk) throw new Error('calcRecruit runs in chunks');
    return runCommissionChunk(ctx, chunk, recruitSpec, await pricingOf(ctx));
  },
});
