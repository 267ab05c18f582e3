import { z } from 'zod';
import { action, envelope, ok, ownAgentOnly, perm, registerResource, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { actorId } from '../common/request.js';
import { PAYMENT_STATUSES, paymentResource } from './payments.resource.js';
import { PaymentService } from './payments.service.js';

const MENU = 'PAYMENT';
const tags = ['Payments'];
const params = z.object({ id: zId });
const monthQuery = z.object({ settleMonth: zSettleMonth });
const statusBody = z.object({
  status: z.enum(PAYMENT_STATUSES),
  resultCode: z.string().trim().max(20).nullish(),
  resultMsg: z.string().trim().max(500).nullish(),
});
const taxResp = z.object({
  paymentId: z.number(),
  incomeTaxAmount: z.string(),
  localTaxAmount: z.string(),
  vatAmount: z.string(),
  netAmount: z.string(),
});
const generateResp = z.object({
  created: z.number().describe('payments created'),
  skipped: z
    .array(
      z.object({
        settleId: z.number(),
        agentId: z.number(),
        agentName: z.string(),
        reason: z.enum(['NO_BANK_ACCOUNT']),
        detail: z.string(),
      }),
    )
    .describe('agents not paid for want of a usable bank account; generate again once it is entered'),
});
const deductionResp = z.object({
  payments: z.number().describe('payments that took deductions'),
  deductions: z.number().describe('deductions applied'),
  deductionSum: z.string(),
  leftPending: z.number().describe('PENDING deductions of the month whose agent has no PENDING payment'),
});

const summaryResp = z.object({
  payments: z.number().describe('live payments of the month (not FAIL)'),
  taxed: z.number().describe('of them with taxes calculated'),
  deducted: z.number().describe('of them with deductions applied'),
  transferred: z.number().describe('of them written to a transfer file'),
  latestAt: z.string().nullable().describe('when a live payment of the month was last created or taxed (UTC)'),
  unpaid: z.number().describe('CONFIRMED settlements with a positive gross and no live payment: what generate would still pay'),
  unpaidAgents: z
    .array(z.object({ settleId: z.number(), agentId: z.number(), agentName: z.string(), detail: z.string().nullable() }))
    .describe('the first 20 of them; detail: why generate skips the agent (no usable bank account), null when it would pay'),
});

/** Payments: list/detail/export and the workflows of DECISIONS "Payments and tax". */
export async function paymentRoutes(app: ServiceApp): Promise<void> {
  const service = new PaymentService(app.db, app.cipher);

  app.get(
    '/api/payments/month-summary',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: "Where the month's payments stand: counts, and the settlements still to pay with why generate skips them (an AGENT sees its own)",
        querystring: monthQuery,
        response: { 200: envelope(summaryResp) },
      },
    },
    async (request) => ok(await service.monthSummary(request.query.settleMonth, ownAgentOnly(request.user)?.agentId)),
  );

  action(
    app,
    '/api/payments/generate',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary:
          'One PENDING payment per CONFIRMED settlement of the month with a positive gross and no payment yet; ' +
          'a negative gross becomes a CHARGEBACK_PENDING deduction of the next month. Data: the number created and ' +
          'the agents skipped because they have no usable bank account (NO_BANK_ACCOUNT); generating again pays them once it is entered.',
        querystring: monthQuery,
        response: { 200: envelope(generateResp) },
      },
    },
    async (request) => {
      const { settleMonth } = request.query;
      const result = await service.generate(settleMonth, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'payment', recordId: `month:${settleMonth}`, action: 'CREATE', after: result });
      const carried = result.carriedForward.length;
      const skipped = result.carryForwardSkipped.length;
      const noAccount = result.skipped.length;
      const message =
        `${result.paymentIds.length} payment(s) created for ${settleMonth}` +
        (carried ? `; ${carried} negative gross carried forward to ${result.nextMonth} as CHARGEBACK_PENDING` : '') +
        (skipped ? `; ${skipped} negative gross not carried: the agent's ${result.nextMonth} CHARGEBACK_PENDING deduction is no longer PENDING` : '') +
        (noAccount ? `; ${noAccount} agent(s) skipped without a usable bank account (NO_BANK_ACCOUNT)` : '');
      return ok({ created: result.paymentIds.length, skipped: result.skipped }, message);
    },
  );

  action(
    app,
    '/api/payments/calculate-taxes',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Rule 5 on every PENDING payment of the month (one transaction); data: payments taxed',
        querystring: monthQuery,
        response: { 200: envelope(z.object({ calculated: z.number() })) },
      },
    },
    async (request) => {
      const { settleMonth } = request.query;
      const updates = await service.calculateTaxes(settleMonth, actorId(request));
      request.changeLog({
        menuCode: MENU,
        tableName: 'payment',
        recordId: `month:${settleMonth}`,
        action: 'UPDATE',
        after: { operation: 'calculate-taxes', settleMonth, payments: updates },
      });
      return ok({ calculated: updates.length });
    },
  );

  action(
    app,
    '/api/payments/apply-deductions',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Rule 6 on every PENDING payment of the month: detail rows, deductions APPLIED, net reduced (one transaction)',
        querystring: monthQuery,
        response: { 200: envelope(deductionResp) },
      },
    },
    async (request) => {
      const { settleMonth } = request.query;
      const { paymentIds, ...result } = await service.applyDeductions({ settleMonth }, actorId(request));
      request.changeLog({
        menuCode: MENU,
        tableName: 'payment',
        recordId: `month:${settleMonth}`,
        action: 'UPDATE',
        after: { operation: 'apply-deductions', settleMonth, paymentIds, ...result },
      });
      return ok(result);
    },
  );

  registerResource(app, paymentResource);

  action(
    app,
    '/api/payments/:id/calculate-tax',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Rule 5 on one PENDING payment (else B001): income tax and local tax to whole won, VAT to cents',
        params,
        response: { 200: envelope(taxResp) },
      },
    },
    async (request) => {
      const { before, after } = await service.calculateTax(request.params.id, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'payment', recordId: request.params.id, action: 'UPDATE', before, after });
      return ok({
        paymentId: after.paymentId,
        incomeTaxAmount: after.incomeTax,
        localTaxAmount: after.localTax,
        vatAmount: after.vat,
        netAmount: after.net,
      });
    },
  );

  action(
    app,
    '/api/payments/:id/apply-deductions',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: "Rule 6 on one PENDING payment (else B001): the agent's PENDING deductions of the month",
        params,
        response: { 200: envelope(deductionResp) },
      },
    },
    async (request) => {
      const { paymentIds, ...result } = await service.applyDeductions({ paymentId: request.params.id }, actorId(request));
      request.changeLog({
        menuCode: MENU,
        tableName: 'payment',
        recordId: request.params.id,
        action: 'UPDATE',
        after: { operation: 'apply-deductions', paymentIds, ...result },
      });
      return ok(result);
    },
  );

  action(
    app,
    '/api/payments/:id/status',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary:
          'Status update {status}: SENT -> SUCCESS (the settlement becomes PAID through the PAYMENT_SUCCEEDED event) or FAIL (the settlement stays ' +
          'CONFIRMED and its deductions PENDING, to be paid again); any other move is B001',
        params,
        body: statusBody,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const result = await service.updateStatus(request.params.id, request.body, actorId(request));
      request.changeLog({
        menuCode: MENU,
        tableName: 'payment',
        recordId: request.params.id,
        action: 'UPDATE',
        before: result.before,
        after: { ...result.after, paidEventId: result.paidEventId, deductionsReleased: result.deductionsReleased },
      });
      return ok();
    },
  );
}
