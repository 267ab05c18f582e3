import { z } from 'zod';
import {
  action,
  contentDisposition,
  envelope,
  invalid,
  isoTimestamp,
  ok,
  notFound,
  perm,
  registerResource,
  requestLang,
  restrictToOwnAgent,
  XLSX_CONTENT_TYPE,
  zId,
  zSettleMonth,
  type ServiceApp,
} from '@csp/service-kit';
import { FileStore } from '../common/file-store.js';
import { actorId } from '../common/request.js';
import { STATEMENT_TYPES } from './statements.repository.js';
import { statementResource, statementSaveReq } from './statements.resource.js';
import { StatementService } from './statements.service.js';

const MENU = 'STATEMENT';
const tags = ['Statements'];
const params = z.object({ id: zId });
const runResp = z.object({
  runId: z.number(),
  settleMonth: z.string(),
  statementType: z.enum(STATEMENT_TYPES),
  status: z.enum(['RUNNING', 'COMPLETED', 'FAILED']),
  totalCount: z.number(),
  doneCount: z.number(),
  errorCount: z.number(),
  percent: z.number(),
  errorMessage: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});

/** Statements: the declared list/detail/export and generate, generate-for-month, download, cancel. */
export async function statementRoutes(app: ServiceApp): Promise<void> {
  const service = new StatementService(app.db, new FileStore(app.config.FILE_STORAGE_DIR), app.log);
  app.addHook('onClose', () => service.drain());

  action(
    app,
    '/api/statements/generate',
    {
      config: perm(MENU, 'CREATE'),
      schema: {
        tags,
        summary:
          "Issue an agent's statement as XLSX from the payments of the month (ANNUAL: of the year up to the month); " +
          'the key (agent, month, type) is re-issued in place; fileFormat PDF is E411',
        body: statementSaveReq,
        response: { 200: envelope(z.object({ statementId: z.number(), fileId: z.number() })) },
      },
    },
    async (request) => {
      const { agentId, settleMonth, statementType, fileFormat } = request.body;
      if (fileFormat === 'PDF') throw invalid('fileFormat', 'PDF statements are not supported: use XLSX');
      const issued = await service.generateOne({ settleMonth, statementType }, agentId, actorId(request), requestLang(request));
      request.changeLog({ menuCode: MENU, tableName: 'commission_statement', recordId: issued.statementId, action: 'CREATE', after: issued });
      return ok({ statementId: issued.statementId, fileId: issued.fileId });
    },
  );

  action(
    app,
    '/api/statements/generate-for-month',
    {
      config: perm(MENU, 'CREATE'),
      schema: {
        tags,
        summary:
          'Issue one statement per agent with payments in the month, in the background; data: the run to follow at ' +
          'GET /api/statements/generate-for-month/{runId}. One run per month and type at a time (B010)',
        body: z.object({ settleMonth: zSettleMonth, statementType: z.enum(STATEMENT_TYPES).default('MONTHLY') }),
        response: { 200: envelope(z.object({ runId: z.number(), totalCount: z.number() })) },
      },
    },
    async (request) => {
      const scope = request.body;
      const started = await service.startMonthRun(scope, actorId(request), requestLang(request), (result) =>
        request.changeLog({ menuCode: MENU, tableName: 'commission_statement', recordId: `run:${result.runId}`, action: 'CREATE', after: { ...scope, ...result } }),
      );
      return ok(started);
    },
  );

  app.get(
    '/api/statements/generate-for-month/:runId',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Progress of a generate-for-month run', params: z.object({ runId: zId }), response: { 200: envelope(runResp) } },
    },
    async (request) => {
      const run = await service.runStatus(request.params.runId);
      if (!run) throw invalid('runId', 'no such run');
      const total = run.total_count;
      return ok({
        runId: Number(run.run_id),
        settleMonth: run.settle_month,
        statementType: run.statement_type,
        status: run.status,
        totalCount: total,
        doneCount: run.done_count,
        errorCount: run.error_count,
        percent: total === 0 ? 100 : Math.floor(((run.done_count + run.error_count) * 100) / total),
        errorMessage: run.error_message,
        startedAt: isoTimestamp(run.started_at),
        endedAt: isoTimestamp(run.ended_at),
      });
    },
  );

  registerResource(app, statementResource);

  app.get(
    '/api/statements/:id/download',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'The statement spreadsheet (binary xlsx); the statement becomes DOWNLOADED', params },
    },
    async (request, reply) => {
      // An AGENT user downloads only its own statements (as the list and detail show only those).
      if (restrictToOwnAgent.applies(request.user)) {
        const own = await restrictToOwnAgent(
          app.db.selectFrom('commission_statement as cs').select('cs.statement_id').where('cs.statement_id', '=', request.params.id),
          request.user,
          ['cs.agent_id'],
        ).executeTakeFirst();
        if (!own) throw notFound(`Statement ${request.params.id}`);
      }
      const { before, after, fileName, opened } = await service.download(request.params.id);
      request.changeLog({ menuCode: MENU, tableName: 'commission_statement', recordId: request.params.id, action: 'UPDATE', before, after });
      return reply
        .header('content-type', XLSX_CONTENT_TYPE)
        .header('content-length', String(opened.size))
        .header('content-disposition', contentDisposition(fileName))
        .header('cache-control', 'no-store')
        .send(opened.stream);
    },
  );

  action(
    app,
    '/api/statements/:id/cancel',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Cancel a statement (already CANCELLED: B001)', params, response: { 200: envelope() } },
    },
    async (request) => {
      const { before, after } = await service.cancel(request.params.id);
      request.changeLog({ menuCode: MENU, tableName: 'commission_statement', recordId: request.params.id, action: 'UPDATE', before, after });
      return ok();
    },
  );
}
