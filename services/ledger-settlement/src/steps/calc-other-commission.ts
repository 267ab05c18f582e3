import { defineStep, type StepCounts } from '@csp/batch';
import {
  appointmentLine,
  collectionLine,
  DomainError,
  persistencyLine,
  reinstatementLine,
  renewalLine,
  revivalCancellations,
  type OtherCommissionLine,
  type OtherPayee,
  type RenewalEndorsement,
} from '@csp/domain';
import { planAgentChunks } from '../calc/agent-chunks.js';
import { calculateIncentivesDueIn } from '../incentives/incentive-calculation.service.js';
import { lockedAgents } from '../calc/locked-agents.js';
import {
  appointmentCandidates,
  monthEventContracts,
  persistencyCandidates,
  renewalEndorsements,
  revivedChargebacks,
  servicingCandidates,
  type CandidateContract,
  type ChargebackRow,
  type Range,
} from '../calc/other-commission-candidates.js';
import { otherCommissionSetupOf } from '../calc/other-commission-rules.js';
import { cancelChargebacks, deleteMonthRows, insertRows, type OtherLedgerRow } from '../calc/other-commission-writer.js';
import { successionsOf } from '../calc/pricing.js';

/**
 * calcOtherCommission (after calcMaintain): collection, renewal, reinstatement, persistency bonus and appointment
 * rows of the month (DECISIONS "Commission types beyond recruit, maintain and override"), chunked by the paid
 * agent. Candidates come from set-based SQL prefilters, the amounts from the @csp/domain rules; each chunk deletes
 * the month's CALCULATED rows of its agents and writes the new ones in its checkpoint transaction (idempotent).
 * Only active types with rules are computed; a revival also cancels the pending chargeback installments it ends.
 * Before the chunks, while the INCENTIVE type is active, the ACTIVE incentive programs paid in this month are
 * (re)calculated once (their results count in other_total only after approval; approved and pending results are
 * never touched).
 */
export const calcOtherCommission = defineStep({
  name: 'calcOtherCommission',
  plan: async (ctx) => {
    const setup = await otherCommissionSetupOf(ctx);
    if (setup.incentiveActive) await calculateIncentivesDueIn(ctx.db, ctx.settleMonth, ctx.runId);
    return planAgentChunks(ctx);
  },
  run: async (ctx, chunk) => {
    if (!chunk) throw new Error('calcOtherCommission runs in chunks');
    const [setup, successions] = await Promise.all([otherCommissionSetupOf(ctx), successionsOf(ctx)]);
    const events = (await monthEventContracts(ctx, setup)).slice(chunk.from, chunk.to);
    return ctx.chunkTransaction(async (trx) => {
      const month = ctx.settleMonth;
      const range: Range = { from: chunk.from, to: chunk.to };
      const inRange = (agentId: number) => agentId >= range.from && agentId <= range.to;
      const locked = await lockedAgents(trx, month);
      const counts = { total: 0, success: 0, error: 0, skipped: 0 } satisfies StepCounts;
      const rows: OtherLedgerRow[] = [];
      const cancels: Array<{ cbId: number; revivalDate: string }> = [];

      const attempt = (subject: Record<string, number>, compute: () => OtherCommissionLine | undefined) => {
        let line: OtherCommissionLine | undefined;
        try {
          line = compute();
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          counts.total++;
          counts.error++;
          ctx.logger.warn({ ...subject, code: err.code, field: err.field }, 'other commission refused by a domain rule');
          return undefined;
        }
        if (line === undefined) return undefined;
        counts.total++;
        if (locked.has(line.agentId)) {
          counts.skipped++;
          return undefined;
        }
        return line;
      };
      const contractRow = (c: CandidateContract, line: OtherCommissionLine): OtherLedgerRow => ({
        ...line,
        policyNo: c.policyNo,
        companyCode: c.companyCode,
        productCode: c.productCode,
        insuranceType: c.insuranceType,
      });

      const contracts = await servicingCandidates(trx, setup, month, range, ctx.companyCode, events);
      const revived = contracts.filter((c) => c.status === 'REVIVE').map((c) => c.contractId);
      // one connection: the queries of the transaction run one after the other
      const endorsements = setup.enabled.has('RENEWAL')
        ? await renewalEndorsements(trx, month, contracts.map((c) => c.contractId))
        : new Map<number, RenewalEndorsement[]>();
      const chargebacks = setup.enabled.has('REINSTATEMENT')
        ? await revivedChargebacks(trx, month, revived)
        : new Map<number, ChargebackRow[]>();
      for (const c of contracts) {
        // Rule 1.2.10: the successor of the latest ACTIVE succession effective in the month services the contract.
        const succession = successions.resolve(c.contractId, month);
        const payee: OtherPayee = { agentId: succession?.toAgentId ?? c.agentId, successionId: succession?.successionId ?? null };
        if (!inRange(payee.agentId)) continue;
        const subject = { contractId: c.contractId };
        if (setup.enabled.has('COLLECTION')) {
          const line = attempt(subject, () => collectionLine(c, payee, month, setup.rules.collection));
          if (line) rows.push(contractRow(c, line));
        }
        if (setup.enabled.has('RENEWAL')) {
          const line = attempt(subject, () =>
            renewalLine(c, endorsements.get(c.contractId) ?? [], payee, month, setup.rules.renewal),
          );
          if (line) rows.push(contractRow(c, line));
        }
        if (setup.enabled.has('REINSTATEMENT')) {
          const installments = (chargebacks.get(c.contractId) ?? []).filter(
            (i) => !(i.settleMonth === month && locked.has(i.agentId)),
          );
          const { cancel, cancelled } = revivalCancellations(c, month, installments);
          const line = attempt(subject, () => reinstatementLine(c, payee, month, setup.rules.reinstatement, cancelled));
          if (line) {
            rows.push(contractRow(c, line));
            for (const cbId of cancel) cancels.push({ cbId, revivalDate: c.revivalDate! });
          }
        }
      }

      if (setup.enabled.has('PERSISTENCY')) {
        for (const c of await persistencyCandidates(trx, month, range, ctx.companyCode)) {
          const line = attempt({ contractId: c.contractId }, () =>
            persistencyLine(c, month, setup.rules.persistency, { amount: c.recruitAmount, rows: c.recruitRows }),
          );
          if (line) rows.push(contractRow(c, line));
        }
      }

      // Appointment rows belong to no carrier: a carrier run leaves them alone.
      if (setup.enabled.has('APPOINTMENT') && ctx.companyCode === undefined) {
        for (const a of await appointmentCandidates(trx, setup, month, range)) {
          const line = attempt({ agentId: a.agentId }, () => appointmentLine(a, month, setup.rules.appointment));
          if (line) rows.push({ ...line, policyNo: null, companyCode: null, productCode: null, insuranceType: null });
        }
      }

      await deleteMonthRows(trx, month, range, ctx.companyCode, locked);
      const written = await insertRows(trx, month, ctx.runId, rows);
      await cancelChargebacks(trx, ctx.runId, cancels);
      counts.success += written;
      counts.skipped += rows.length - written;
      ctx.progress(contracts.length);
      return counts;
    });
  },
});
