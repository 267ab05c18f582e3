import { defineStep } from '@csp/batch';
import { addMonths, lastDayOfMonth, maintainEligibility } from '@csp/domain';
import { sql } from 'kysely';
import {
  planContractChunks,
  runCommissionChunk,
  type CommissionStepSpec,
} from '../calc/commission-step.js';
import { pricingOf, successionsOf } from '../calc/pricing.js';

/**
 * Commission years 2..5 mean 12..59 whole months from the contract date to the month end; the SQL window
 * (11..61 months) is only a prefilter, maintainEligibility decides.
 */
function candidates(month: string) {
  const end = lastDayOfMonth(month);
  return sql`c.status IN ('ACTIVE', 'REVIVE')
    AND c.contract_date BETWEEN ${addMonths(end, -61)}::date AND ${addMonths(end, -11)}::date`;
}

export const calcMaintain = defineStep({
  name: 'calcMaintain',
  // A chunk computes its rows in node while PostgreSQL stores the batch before: two chunks at once keep
  // both busy (a second worker process measured x1.42 on the 1M book).
  concurrency: 2,
  plan: (ctx) =>
    planContractChunks(ctx, { kind: 'MAINTAIN', table: 'maintain_ledger', candidates, decide: () => undefined }),
  run: async (ctx, chunk) => {
    if (!chunk) throw new Error('calcMaintain runs in chunks');
    const [pricing, successions] = await Promise.all([pricingOf(ctx), successionsOf(ctx)]);
    const spec: CommissionStepSpec = {
      kind: 'MAINTAIN',
      table: 'maintain_ledger',
      candidates,
      decide: (contract, month) => {
        if (contract.contract_date === null) return undefined;
        const verdict = maintainEligibility(
          { status: contract.status, contractDate: contract.contract_date, payCycle: contract.pay_cycle },
          month,
        );
        if (!verdict.eligible) return undefined;
        // Rule 10: the successor of the latest ACTIVE succession effective in the month is paid.
        const succession = successions.resolve(contract.contract_id, month);
        return {
          commissionYear: verdict.commissionYear,
          agentId: succession?.toAgentId ?? contract.agent_id,
          succession,
        };
      },
    };
    return runCommissionChunk(ctx, chunk, spec, pricing);
  },
});
