import { z } from 'zod';
import { archiveAware } from '@csp/db';
import { envelope, notFound, ok, perm, readDb, restrictToOwnAgent, zId, type ServiceApp } from '@csp/service-kit';
import { explainResp } from './explain.schemas.js';
import { explainSettlement, type SettleRow } from './explain.service.js';

/**
 * GET /api/settle/{id}/explain: the settlement's figures line by line (AGENT users: own rows only). Read off the
 * replica (readDb); `includeArchive=true` reads the ledger lines of an archived month too.
 */
export async function registerExplainRoutes(app: ServiceApp): Promise<void> {
  app.get(
    '/api/settle/:id/explain',
    {
      config: perm('SETTLE_LIST', 'READ'),
      schema: {
        tags: ['Settlement'],
        summary:
          'Explain a settlement: every ledger line behind each figure, totals recomputed and reconciled',
        params: z.object({ id: zId }),
        response: { 200: envelope(explainResp) },
      },
    },
    async (request) => {
      const db = archiveAware(await readDb(request));
      const settle = (await restrictToOwnAgent(
        db
          .selectFrom('settle_master as s')
          .leftJoin('agent as a', 'a.agent_id', 's.agent_id')
          .select([
            's.settle_id',
            's.agent_id',
            'a.agent_name',
            's.settle_month',
            's.status',
            's.recruit_total',
            's.maintain_total',
            's.override_total',
            's.exception_plus',
            's.exception_minus',
            's.chargeback_total',
            's.gross_amount',
            's.tax_amount',
            's.net_amount',
            's.correction_total',
            's.other_total',
            's.calc_basis',
          ])
          .where('s.settle_id', '=', request.params.id),
        request.user,
        ['s.agent_id'],
      ).executeTakeFirst()) as SettleRow | undefined;
      if (!settle) throw notFound(`Settlement ${request.params.id}`);
      return ok(await explainSettlement(db, settle));
    },
  );
}
