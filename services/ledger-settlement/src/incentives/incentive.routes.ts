import { sql } from 'kysely';
import { z } from 'zod';
import { action, AppError, envelope, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { calculateProgram } from './incentive-calculation.service.js';
import { cancelResult, submitResults } from './incentive-payment.service.js';
import { MENU_PROGRAM, programResource, programSaveReq, programUpdateReq } from './incentive-program.resource.js';
import { createProgram, moveProgram, updateProgram, type ProgramInput } from './incentive-program.service.js';
import { MENU_PAYMENT, resultResource } from './incentive-result.resource.js';

const params = z.object({ id: zId });
const programTags = ['Incentive programs'];
const paymentTags = ['Incentive payments'];

const calculationResp = z.object({
  programId: z.number().int(),
  programCode: z.string(),
  settleMonth: z.string(),
  measured: z.number().int(),
  qualified: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  deleted: z.number().int(),
  kept: z.number().int(),
  calculatedAmount: z.string(),
});
const submitReq = z.object({
  ids: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(1000).describe('incentive result ids'),
  approvalLineCode: z.string().trim().min(1).max(30).optional().describe('default: system_config INCENTIVE_APPROVAL_LINE'),
});
const submitResp = z.object({ submitted: z.number().int(), ids: z.array(z.number().int()), approvalLineCode: z.string() });
const cancelReq = z.object({ reason: z.string().trim().min(1).max(1000) });

/** The version a client sent as `If-Match: "<version>"` (DECISIONS "Update bodies and optimistic locking"). */
function ifMatchVersion(header: string | string[] | undefined): number | undefined {
  const match = /^(?:W\/)?"?(\d+)"?$/.exec(String(header ?? '').trim());
  return match ? Number(match[1]) : undefined;
}

function userIdOf(user: { userId: number } | undefined): number {
  if (!user) throw new AppError('UNAUTHORIZED');
  return user.userId;
}

/**
 * Incentive programs (INCENTIVE_PROG) with their tiers and the status moves DRAFT -> ACTIVE -> CLOSED; their
 * calculation (INCENTIVE_PAY CREATE); incentive payments (INCENTIVE_PAY: list/detail/export with the AGENT
 * scope, submit for approval, cancel).
 */
export async function registerIncentiveRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, programResource);
  registerResource(app, resultResource);

  const programDetail = async (id: number) => {
    const row = await programResource.select(app.db).where(sql.ref(programResource.idRef), '=', id).executeTakeFirstOrThrow();
    return programResource.toResp(row, app.cipher);
  };
  const resultDetail = async (id: number) => {
    const row = await resultResource.select(app.db).where(sql.ref(resultResource.idRef), '=', id).executeTakeFirstOrThrow();
    return resultResource.toResp(row, app.cipher);
  };

  app.post(
    '/api/incentive-programs',
    {
      config: perm(MENU_PROGRAM, 'CREATE'),
      schema: {
        tags: programTags,
        summary: 'Create a program (DRAFT) with its tiers: thresholds strictly increasing with tierNo, rewardAmount (FIXED) or rewardPct (PCT)',
        body: programSaveReq,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
    },
    async (request) => {
      const result = await createProgram(app.db, request.user?.userId ?? null, request.body as ProgramInput);
      for (const c of result.changes) request.changeLog(c);
      return ok({ id: result.program.program_id });
    },
  );

  app.put(
    '/api/incentive-programs/:id',
    {
      config: perm(MENU_PROGRAM, 'UPDATE'),
      schema: {
        tags: programTags,
        summary:
          'Replace a program and its tiers (optional version: stale -> B002); CLOSED -> B001; with results its tiers, period, pay month, metric and reward type are fixed (B001)',
        params,
        body: programUpdateReq,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const body = request.body as ProgramInput;
      const input = { ...body, version: body.version ?? ifMatchVersion(request.headers['if-match']) };
      const result = await updateProgram(app.db, request.params.id, request.user?.userId ?? null, input);
      for (const c of result.changes) request.changeLog(c);
      return ok();
    },
  );

  for (const move of ['activate', 'close'] as const) {
    action(
      app,
      `/api/incentive-programs/:id/${move}`,
      {
        config: perm(MENU_PROGRAM, 'UPDATE'),
        schema: {
          tags: programTags,
          summary: move === 'activate' ? 'DRAFT -> ACTIVE (else B001)' : 'ACTIVE -> CLOSED (else B001)',
          params,
          response: { 200: envelope(programResource.schemas.response) },
        },
      },
      async (request) => {
        const result = await moveProgram(app.db, request.params.id, move, request.user?.userId ?? null);
        for (const c of result.changes) request.changeLog(c);
        return ok(await programDetail(request.params.id));
      },
    );
  }

  action(
    app,
    '/api/incentive-programs/:id/calculate',
    {
      config: perm(MENU_PAYMENT, 'CREATE'),
      schema: {
        tags: programTags,
        summary:
          'Measure every agent over the period of an ACTIVE program and write its results (settle month = pay month); ' +
          'replaces CALCULATED/REJECTED results, never PENDING_APPROVAL/APPROVED/CANCELLED ones; a closed pay month is B001',
        params,
        response: { 200: envelope(calculationResp) },
      },
    },
    async (request) => {
      const result = await calculateProgram(app.db, request.params.id, { userId: request.user?.userId ?? null });
      for (const c of result.changes) request.changeLog(c);
      return ok(result.counts);
    },
  );

  action(
    app,
    '/api/incentive-payments/submit',
    {
      config: perm(MENU_PAYMENT, 'UPDATE'),
      schema: {
        tags: paymentTags,
        summary:
          'Put CALCULATED or REJECTED results up for approval (PENDING_APPROVAL; one INCENTIVE approval request each, started through the approval workflow); ' +
          'another status or a closed pay month is B001',
        body: submitReq,
        response: { 200: envelope(submitResp) },
      },
    },
    async (request) => {
      const result = await submitResults(app.db, {
        ids: request.body.ids,
        userId: userIdOf(request.user),
        approvalLineCode: request.body.approvalLineCode,
      });
      for (const c of result.changes) request.changeLog(c);
      return ok({ submitted: result.ids.length, ids: result.ids, approvalLineCode: result.approvalLineCode });
    },
  );

  action(
    app,
    '/api/incentive-payments/:id/cancel',
    {
      config: perm(MENU_PAYMENT, 'UPDATE'),
      schema: {
        tags: paymentTags,
        summary: 'CALCULATED or REJECTED -> CANCELLED with a reason (else B001; a closed pay month is B001)',
        params,
        body: cancelReq,
        response: { 200: envelope(resultResource.schemas.response) },
      },
    },
    async (request) => {
      const result = await cancelResult(app.db, { id: request.params.id, userId: request.user?.userId ?? null, reason: request.body.reason });
      for (const c of result.changes) request.changeLog(c);
      return ok(await resultDetail(request.params.id));
    },
  );
}
