import { defineStep, rangeChunks } from '@csp/batch';
import { firstDayOfMonth, isDateInSettleMonth, lastDayOfMonth } from '@csp/domain';
import { sql } from 'kysely';
import {
  CONTRACT_CHUNK_SIZE,
  contractIdBounds,
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
  plan: async (ctx) => {
    const bounds = await contractIdBounds(ctx, recruitSpec);
    return bounds ? rangeChunks(bounds.min, bounds.max, CONTRACT_CHUNK_SIZE) : [];
  },
  run: async (ctx, chunk) => {
    if (!chunk) throw new Error('calcRecruit runs in chunks');
    return runCommissionChunk(ctx, chunk, recruitSpec, await pricingOf(ctx));
  },
});
