import { envelope, isoTimestamp, listQuery, notFound, ok, pageResponse, paginate, perm, zId, type ServiceApp } from '@csp/service-kit';
import { z } from 'zod';
import { zQueryBool } from '../common/schemas.js';
import { EXTERNAL_CALL_SORT, ExternalCallRepository, type ExternalCallRow } from './repository.js';

const MENU = 'SYSTEM_EXTERNAL_CALL_LOG';
const tags = ['external-call-logs'];

const listQ = listQuery(Object.keys(EXTERNAL_CALL_SORT) as Array<keyof typeof EXTERNAL_CALL_SORT>, {
  callType: z.enum(['BANK', 'MESSAGE', 'OTHER']).optional(),
  success: zQueryBool.optional(),
  targetRef: z.string().max(100).optional(),
  adapterName: z.string().max(100).optional(),
  methodName: z.string().max(100).optional(),
});

const callResp = z.object({
  callId: z.number(),
  callType: z.string(),
  adapterName: z.string(),
  methodName: z.string(),
  success: z.boolean(),
  durationMs: z.number(),
  targetRef: z.string().nullable(),
  requestSummary: z.string().nullable(),
  responseSummary: z.string().nullable(),
  errorMessage: z.string().nullable(),
  calledAt: z.string(),
});

function toResp(r: ExternalCallRow) {
  return {
    callId: r.call_id,
    callType: r.call_type,
    adapterName: r.adapter_name,
    methodName: r.method_name,
    success: r.success,
    durationMs: r.duration_ms,
    targetRef: r.target_ref,
    requestSummary: r.request_summary,
    responseSummary: r.response_summary,
    errorMessage: r.error_message,
    calledAt: isoTimestamp(r.called_at),
  };
}

/** Read-only: rows are written by the bank and message adapters (already masked). */
export async function externalCallRoutes(app: ServiceApp): Promise<void> {
  const repo = new ExternalCallRepository(app.db);

  app.get(
    '/api/external-call-logs',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'List external calls', querystring: listQ, response: { 200: pageResponse(callResp) } } },
    async (request) => {
      const page = await paginate(repo.listQuery(request.query), request.query, { sortable: EXTERNAL_CALL_SORT, defaultSort: 'call_id desc' });
      return ok({ ...page, list: page.list.map((row) => toResp(row as ExternalCallRow)) });
    },
  );

  app.get(
    '/api/external-call-logs/:id',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'One external call', params: z.object({ id: zId }), response: { 200: envelope(callResp) } },
    },
    async (request) => {
      const row = await repo.find(request.params.id);
      if (!row) throw notFound(`External call ${request.params.id}`);
      return ok(toResp(row));
    },
  );
}
