import { z } from 'zod';
import type { Insertable } from 'kysely';
import type { PaymentTable } from '@csp/db';
import { date, id, money, month, text, writeOnlyText } from './cells.js';
import { cachedLookup, rejected, type ImportContext, type ImportTarget, type Prepared } from './target.js';

const ACCOUNT_NO = { re: /^\d[\d-]{5,29}$/, message: 'must be an account number (digits and dashes)' };

const schema = z.object({
  agent_id: id(true),
  settle_month: month(true),
  amount: money(true),
  bank_code: text(10),
  account_no: writeOnlyText(30, false, ACCOUNT_NO),
  transfer_date: date(),
});
type Row = z.output<typeof schema>;
type Values = Insertable<PaymentTable>;

interface AgentBank {
  bankCode: string | null;
  accountNo: string | null;
}

/**
 * payment (payment-tax): a PENDING payment before taxes (net = amount until calculate-taxes runs);
 * the agent must exist and have no payment of that month yet; bank and (encrypted) account default
 * to the agent's; the agent's settlement of the month, if any, is linked.
 */
export const paymentTarget: ImportTarget<Row, Values> = {
  table: 'payment',
  label: 'Payments',
  owner: 'payment-tax',
  permission: { menu: 'PAYMENT', perm: 'UPDATE' },
  fields: [
    { field: 'agent_id', label: 'Agent ID', type: 'INTEGER', required: true },
    { field: 'settle_month', label: 'Settle month', type: 'STRING', required: true, description: 'YYYYMM' },
    { field: 'amount', label: 'Amount', type: 'AMOUNT', required: true },
    {
      field: 'bank_code',
      label: 'Bank code',
      type: 'STRING',
      required: false,
      description: "default the agent's",
    },
    {
      field: 'account_no',
      label: 'Account number',
      type: 'STRING',
      required: false,
      description: "stored encrypted; default the agent's",
    },
    { field: 'transfer_date', label: 'Transfer date', type: 'DATE', required: false },
  ],
  // payments are a read-only resource written by payment-tax's workflows: no owner save body to reuse
  rowSchema: () => schema,
  open(ctx: ImportContext) {
    const agents = new Map<number, AgentBank | undefined>();
    const taken = new Set<string>();
    return {
      async prepare(rows) {
        await cachedLookup(
          agents,
          rows.map((r) => r.agent_id),
          async (m) => {
            const found = await ctx.db
              .selectFrom('agent')
              .select(['agent_id', 'bank_code', 'account_no'])
              .where('agent_id', 'in', m)
              .execute();
            return new Map(
              found.map((a) => [a.agent_id, { bankCode: a.bank_code, accountNo: a.account_no }]),
            );
          },
          undefined,
        );
        const ids = [...new Set(rows.map((r) => r.agent_id))];
        const months = [...new Set(rows.map((r) => r.settle_month))];
        const existing = await ctx.db
          .selectFrom('payment')
          .select(['agent_id', 'settle_month'])
          .where('agent_id', 'in', ids)
          .where('settle_month', 'in', months)
          .execute();
        for (const p of existing) taken.add(`${p.agent_id}/${p.settle_month}`);
        const settles = await ctx.db
          .selectFrom('settle_master')
          .select(['settle_id', 'agent_id', 'settle_month'])
          .where('agent_id', 'in', ids)
          .where('settle_month', 'in', months)
          .execute();
        const settleOf = new Map(settles.map((s) => [`${s.agent_id}/${s.settle_month}`, s.settle_id]));
        return rows.map((r): Prepared<Values> => {
          const agent = agents.get(r.agent_id);
          if (!agent) return rejected('agent_id', `agent ${r.agent_id} does not exist`);
          const key = `${r.agent_id}/${r.settle_month}`;
          if (taken.has(key))
            return rejected(
              'settle_month',
              `agent ${r.agent_id} already has a payment for ${r.settle_month}`,
            );
          taken.add(key);
          return {
            ok: true,
            values: {
              settle_id: settleOf.get(key) ?? null,
              agent_id: r.agent_id,
              settle_month: r.settle_month,
              bank_code: r.bank_code ?? agent.bankCode,
              account_no: r.account_no ? ctx.cipher.encrypt(r.account_no) : agent.accountNo,
              amount: r.amount,
              transfer_date: r.transfer_date ?? null,
              net_amount: r.amount,
              created_by: ctx.userId,
              updated_by: ctx.userId,
            },
          };
        });
      },
      copyTable: 'payment',
    };
  },
};
