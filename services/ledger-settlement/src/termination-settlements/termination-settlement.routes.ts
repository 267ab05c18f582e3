import { sql } from 'kysely';
import { z } from 'zod';
import { TERMINATION_ITEM_KINDS } from '@csp/db';
import { action, envelope, notFound, ok, perm, registerResource, zDate, zId, type ServiceApp } from '@csp/service-kit';
import { MENU_TERMINATION, terminationResource } from './termination-settlement.resource.js';
import { storedItems, type TerminationItemRow } from './termination-settlement.repository.js';
import {
  approveTermination,
  cancelTermination,
  computeTermination,
  createTermination,
  type TerminationResult,
} from './termination-settlement.service.js';

const tags = ['Termination settlements'];
const params = z.object({ id: zId });
const note = z.string().trim().min(1).max(1000);
const createReq = z.object({ agentId: zId, leaveDate: zDate, note: note.optional() });
const item = z.object({
  kind: z.enum(TERMINATION_ITEM_KINDS),
  id: z.number().int().describe('settle_id, cb_id, deduction_id or ledger_id (by kind)'),
  settleMonth: z.string(),
  amount: z.string().describe('signed contribution to the final net'),
});
const detailResp = terminationResource.schemas.response.extend({
  preview: z.boolean().describe('true while DRAFT: the figures and rows are recomputed now, not the stored ones'),
  items: z.array(item),
});

/** Termination settlements: list/export (field table), create, detail (recomputed while DRAFT), approve, cancel. */
export async function registerTerminationRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, terminationResource);

  const detail = async (id: number, user: Parameters<typeof terminationResource.applyFilters>[2]) => {
    const base = terminationResource.applyFilters(terminationResource.select(app.db), {}, user);
    const row = await base.where(sql.ref(terminationResource.idRef), '=', id).executeTakeFirst();
    if (!row) throw notFound(`TerminationSettlement ${id}`);
    const resp = terminationResource.toResp(row, app.cipher);
    if (resp.status === 'DRAFT') {
      const now = await computeTermination(app.db, Number(resp.agentId), String(resp.settleMonth), false);
      return { ...resp, ...now.figures, calcBasis: { items: now.items }, preview: true, items: now.items };
    }
    const items: TerminationItemRow[] =
      resp.status === 'APPROVED' ? await storedItems(app.db, id) : ((resp.calcBasis as { items?: TerminationItemRow[] } | null)?.items ?? []);
    return { ...resp, preview: false, items };
  };

  const respond = async (result: TerminationResult, log: (c: (typeof result.changes)[number]) => void, user: Parameters<typeof detail>[1]) => {
    for (const c of result.changes) log(c);
    return ok(await detail(Number(result.termination.term_id), user));
  };

  app.post(
    '/api/termination-settlements',
    {
      config: perm(MENU_TERMINATION, 'CREATE'),
      schema: {
        tags,
        summary:
          'Termination settlement (DRAFT) of an ACTIVE agent (else E411): unpaid confirmed gross - accelerated chargebacks - pending deductions +/- pending exceptions = final net; one open per agent (B009); the final month must be open (B001)',
        body: createReq,
        response: { 200: envelope(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const result = await createTermination(app.db, { ...request.body, userId: request.user?.userId ?? null });
      for (const c of result.changes) request.changeLog(c);
      return ok({ id: Number(result.termination.term_id) });
    },
  );

  app.get(
    '/api/termination-settlements/:id',
    {
      config: perm(MENU_TERMINATION, 'READ'),
      schema: { tags, summary: 'Termination settlement with the rows it counts (recomputed while DRAFT: a preview)', params, response: { 200: envelope(detailResp) } },
    },
    async (request) => ok(await detail(request.params.id, request.user)),
  );

  action(
    app,
    '/api/termination-settlements/:id/approve',
    {
      config: perm(MENU_TERMINATION, 'APPROVE'),
      schema: {
        tags,
        summary:
          'Approve a DRAFT termination (else B001; not your own: E403): rows taken over, a receivable deduction (negative) or a booked correction (positive), the agent retired',
        params,
        body: z.object({ note: note.optional() }).optional(),
        response: { 200: envelope(detailResp) },
      },
    },
    async (request) =>
      respond(
        await approveTermination(app.db, { termId: request.params.id, userId: request.user?.userId ?? null, note: request.body?.note }),
        (c) => request.changeLog(c),
        request.user,
      ),
  );

  action(
    app,
    '/api/termination-settlements/:id/cancel',
    {
      config: perm(MENU_TERMINATION, 'UPDATE'),
      schema: { tags, summary: 'Cancel a DRAFT termination with a reason (else B001)', params, body: z.object({ reason: note }), response: { 200: envelope(detailResp) } },
    },
    async (request) =>
      respond(
        await cancelTermination(app.db, { termId: request.params.id, userId: request.user?.userId ?? null, reason: request.body.reason }),
        (c) => request.changeLog(c),
        request.user,
      ),
  );
}
