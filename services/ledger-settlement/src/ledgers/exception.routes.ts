import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database, Db } from '@csp/db';
import { z } from 'zod';
import { exceptionRegisterReq } from '@csp/field-tables';
import {
  action,
  AppError,
  envelope,
  invalid,
  notFound,
  ok,
  perm,
  zId,
  type ServiceApp,
} from '@csp/service-kit';
import { assertMonthOpen as assertPeriodOpen, lockMonthShared } from '../period-closes/month-guard.js';

const MENU = 'LEDGER_EXCEPTION';
const tags = ['Ledger'];

// The register body is shared with intake's exception_ledger import (@csp/field-tables).
export { exceptionRegisterReq };

const rejectReq = z.object({ reason: z.string().trim().min(1).max(1000) });
const params = z.object({ id: zId });

type Trx = Transaction<Database> | Db;

/** A CLOSED settle month refuses exception changes with B001 naming the month (before the V080 trigger would). */
async function assertPeriodNotClosed(trx: Trx, settleMonth: string, refused: string): Promise<void> {
  await lockMonthShared(trx, settleMonth);
  await assertPeriodOpen(trx, settleMonth, refused);
}

/** A CONFIRMED or PAID settlement freezes the agent's month: nothing may be added or approved into it. */
async function assertMonthOpen(trx: Trx, agentId: number, settleMonth: string): Promise<void> {
  const settle = await trx
    .selectFrom('settle_master')
    .select(['settle_id', 'status'])
    .where('agent_id', '=', agentId)
    .where('settle_month', '=', settleMonth)
    .executeTakeFirst();
  if (settle && (settle.status === 'CONFIRMED' || settle.status === 'PAID')) {
    throw new AppError(
      'ALREADY_CONFIRMED',
      `The settlement of agent ${agentId} for ${settleMonth} is ${settle.status}`,
    );
  }
}

async function lockPending(trx: Trx, id: number, action: string) {
  const row = await trx
    .selectFrom('exception_ledger')
    .selectAll()
    .where('ledger_id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound(`Exception ledger ${id}`);
  if (row.approve_status !== 'PENDING') {
    throw new AppError(
      'ALREADY_CONFIRMED',
      `Exception ledger ${id} is ${row.approve_status}; only PENDING rows can be ${action}`,
    );
  }
  return row;
}

/** Exception ledger register (PENDING) and approval (spec 3.2): only APPROVED rows count in the aggregate. */
export async function registerExceptionRoutes(app: ServiceApp): Promise<void> {
  const db = () => app.db;

  app.post(
    '/api/ledger/exception',
    {
      config: perm(MENU, 'CREATE'),
      schema: {
        tags,
        summary: 'Register an exception (direction from its type code; approve status PENDING)',
        body: exceptionRegisterReq,
        response: { 200: envelope(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const b = request.body;
      const userId = request.user?.userId ?? null;
      const created = await db()
        .transaction()
        .execute(async (trx) => {
          await assertPeriodNotClosed(trx, b.settleMonth, 'registering an exception');
          const type = await trx
            .selectFrom('exception_type_code')
            .select(['direction', 'is_active'])
            .where('exception_code', '=', b.exceptionCode)
            .executeTakeFirst();
          if (!type || !type.is_active)
            throw invalid('exceptionCode', 'is not an active exception type code');
          const agent = await trx
            .selectFrom('agent')
            .select('agent_id')
            .where('agent_id', '=', b.agentId)
            .executeTakeFirst();
          if (!agent) throw invalid('agentId', 'agent does not exist');
          let contract:
            | { policy_no: string; company_code: string; product_code: string; insurance_type: string }
            | undefined;
          if (b.contractId !== undefined) {
            contract = await trx
              .selectFrom('contract as ct')
              .innerJoin('product as p', 'p.product_id', 'ct.product_id')
              .innerJoin('insurance_company as ic', 'ic.company_id', 'p.company_id')
              .select(['ct.policy_no', 'ic.company_code', 'p.product_code', 'p.insurance_type'])
              .where('ct.contract_id', '=', b.contractId)
              .executeTakeFirst();
            if (!contract) throw invalid('contractId', 'contract does not exist');
          }
          await assertMonthOpen(trx, b.agentId, b.settleMonth);
          return trx
            .insertInto('exception_ledger')
            .values({
              agent_id: b.agentId,
              contract_id: b.contractId ?? null,
              policy_no: contract?.policy_no ?? null,
              company_code: contract?.company_code ?? null,
              product_code: contract?.product_code ?? null,
              insurance_type: contract?.insurance_type ?? null,
              settle_month: b.settleMonth,
              exception_code: b.exceptionCode,
              direction: type.direction,
              amount: b.amount,
              reason: b.reason,
              approve_status: 'PENDING',
              recurring_yn: b.recurringYn,
              recurring_until: b.recurringYn === 'Y' ? b.recurringUntil! : null,
              source: 'MANUAL',
              created_by: userId,
              updated_by: userId,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
        });
      const id = Number(created.ledger_id);
      request.changeLog({
        menuCode: MENU,
        tableName: 'exception_ledger',
        recordId: id,
        action: 'CREATE',
        after: created,
      });
      return ok({ id });
    },
  );

  /**
   * Approves or rejects a PENDING exception (B001 otherwise). Approving adds it to the agent's month, so that
   * month must still be open; a rejection changes nothing the settlement counts.
   */
  async function decide(
    request: Pick<FastifyRequest, 'user' | 'changeLog'>,
    id: number,
    decision: { approve: true } | { approve: false; reason: string },
  ) {
    const userId = request.user?.userId ?? null;
    const { before, after } = await db()
      .transaction()
      .execute(async (trx) => {
        const row = await lockPending(trx, id, decision.approve ? 'approved' : 'rejected');
        await assertPeriodNotClosed(trx, row.settle_month, decision.approve ? 'exception approval' : 'exception rejection');
        if (decision.approve) await assertMonthOpen(trx, Number(row.agent_id), row.settle_month);
        const updated = await trx
          .updateTable('exception_ledger')
          .set({
            approve_status: decision.approve ? 'APPROVED' : 'REJECTED',
            ...(!decision.approve && { reject_reason: decision.reason }),
            approver_id: userId,
            approve_date: new Date(),
            updated_by: userId,
            updated_at: new Date(),
          })
          .where('ledger_id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { before: row, after: updated };
      });
    request.changeLog({
      menuCode: MENU,
      tableName: 'exception_ledger',
      recordId: id,
      action: decision.approve ? 'APPROVE' : 'UPDATE',
      before,
      after,
    });
    return ok();
  }

  action(
    app,
    '/api/ledger/exception/:id/approve',
    {
      config: perm(MENU, 'APPROVE'),
      schema: {
        tags,
        summary: 'Approve a PENDING exception (else B001)',
        params,
        response: { 200: envelope() },
      },
    },
    (request) => decide(request, request.params.id, { approve: true }),
  );

  action(
    app,
    '/api/ledger/exception/:id/reject',
    {
      config: perm(MENU, 'APPROVE'),
      schema: {
        tags,
        summary: 'Reject a PENDING exception with a reason (else B001)',
        params,
        body: rejectReq,
        response: { 200: envelope() },
      },
    },
    (request) => decide(request, request.params.id, { approve: false, reason: request.body.reason }),
  );
}
