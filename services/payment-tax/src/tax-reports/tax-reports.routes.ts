import { z } from 'zod';
import {
  action,
  AppError,
  contentDisposition,
  envelope,
  notFound,
  ok,
  perm,
  readDb,
  registerResource,
  XLSX_CONTENT_TYPE,
  zId,
  zQuarter,
  type ServiceApp,
} from '@csp/service-kit';
import { FileStore } from '../common/file-store.js';
import { actorId } from '../common/request.js';
import {
  annualIncomeResource,
  vatResource,
  withholdingResource,
  yearEndStatementResource,
} from './tax-reports.resource.js';
import {
  completeReports,
  issueYearEnd,
  regenerateAnnualIncome,
  regenerateVat,
  regenerateWithholding,
  regenerateYearEnd,
  sendYearEnd,
} from './tax-reports.service.js';

const tags = ['Tax reports'];
const zYear = z.coerce.number().int().min(1900).max(9999);
const params = z.object({ id: zId });
const regenerated = z.object({
  affected: z.number().describe('rows written'),
  keptCompleted: z.number().describe('COMPLETED (or ISSUED/SENT) rows left as they were'),
  removed: z.number().describe('rows of agents without counted payments any more, removed'),
});
const completed = z.object({ completed: z.number(), alreadyCompleted: z.number() });

/** Annual income, withholding and VAT reports, year-end statements: lists, regenerate, complete, issue, send. */
export async function taxReportRoutes(app: ServiceApp): Promise<void> {
  const store = new FileStore(app.config.FILE_STORAGE_DIR);

  // ---- annual income
  action(
    app,
    '/api/agent-annual-incomes/regenerate',
    {
      config: perm('ANNUAL_INCOME', 'EXECUTE'),
      schema: {
        tags,
        summary: "Recompute the year's annual income from its payments (status not FAIL); annual income has no COMPLETED state",
        querystring: z.object({ year: zYear }),
        response: { 200: envelope(regenerated) },
      },
    },
    async (request) => {
      const { year } = request.query;
      const r = await regenerateAnnualIncome(app.db, year);
      const data = { affected: r.written, keptCompleted: 0, removed: r.removed };
      request.changeLog({ menuCode: 'ANNUAL_INCOME', tableName: 'agent_annual_income', recordId: `year:${year}`, action: 'UPDATE', after: data });
      return ok(data, `${r.written} agent(s) recomputed for ${year}; annual income rows have no COMPLETED state, so none was kept`);
    },
  );

  app.get(
    '/api/agent-annual-incomes/:agentId/:settleYear',
    {
      config: perm('ANNUAL_INCOME', 'READ'),
      schema: {
        tags,
        summary: "An agent's annual income of a year",
        params: z.object({ agentId: zId, settleYear: zYear }),
        response: { 200: envelope(annualIncomeResource.schemas.response) },
      },
    },
    async (request) => {
      const { agentId, settleYear } = request.params;
      const row = await annualIncomeResource
        .applyFilters(annualIncomeResource.select(await readDb(request)), {}, request.user)
        .where('ai.agent_id', '=', agentId)
        .where('ai.settle_year', '=', settleYear)
        .executeTakeFirst();
      if (!row) throw notFound(`Annual income of agent ${agentId} in ${settleYear}`);
      return ok(annualIncomeResource.toResp(row, app.cipher));
    },
  );
  registerResource(app, annualIncomeResource);

  // ---- withholding and VAT
  for (const report of [
    { resource: withholdingResource, table: 'withholding_tax_report' as const, menu: 'WITHHOLDING_TAX', regenerate: regenerateWithholding },
    { resource: vatResource, table: 'vat_report' as const, menu: 'VAT_REPORT', regenerate: regenerateVat },
  ]) {
    action(
      app,
      `${report.resource.path}/regenerate`,
      {
        config: perm(report.menu, 'EXECUTE'),
        schema: {
          tags,
          summary: 'Recompute the quarter from its payments; COMPLETED rows are kept unchanged',
          body: z.object({ settleQuarter: zQuarter }),
          response: { 200: envelope(regenerated) },
        },
      },
      async (request) => {
        const { settleQuarter } = request.body;
        const r = await report.regenerate(app.db, settleQuarter);
        const data = { affected: r.written, keptCompleted: r.keptCompleted, removed: 0 };
        request.changeLog({ menuCode: report.menu, tableName: report.table, recordId: `quarter:${settleQuarter}`, action: 'UPDATE', after: data });
        return ok(data, `${r.written} row(s) recomputed for ${settleQuarter}; ${r.keptCompleted} COMPLETED row(s) kept unchanged`);
      },
    );
    action(
      app,
      `${report.resource.path}/complete`,
      {
        config: perm(report.menu, 'EXECUTE'),
        schema: {
          tags,
          summary: 'Mark report rows COMPLETED (filed); later regenerations leave them alone',
          body: z.object({ ids: z.array(zId).min(1).max(100_000) }),
          response: { 200: envelope(completed) },
        },
      },
      async (request) => {
        const result = await completeReports(app.db, report.table, request.body.ids, actorId(request));
        request.changeLog({ menuCode: report.menu, tableName: report.table, recordId: `ids:${request.body.ids.join(',')}`.slice(0, 100), action: 'UPDATE', after: { ids: request.body.ids, ...result } });
        return ok(result);
      },
    );
    registerResource(app, report.resource);
  }

  // ---- year-end statements
  action(
    app,
    '/api/year-end-statements/regenerate',
    {
      config: perm('ANNUAL_INCOME', 'EXECUTE'),
      schema: {
        tags,
        summary: "Aggregate the year's payments per agent; GENERATED rows are recomputed, ISSUED and SENT rows kept",
        body: z.object({ settleYear: zYear }),
        response: { 200: envelope(regenerated) },
      },
    },
    async (request) => {
      const { settleYear } = request.body;
      const r = await regenerateYearEnd(app.db, settleYear);
      const data = { affected: r.written, keptCompleted: r.kept, removed: r.removed };
      request.changeLog({ menuCode: 'ANNUAL_INCOME', tableName: 'year_end_statement', recordId: `year:${settleYear}`, action: 'UPDATE', after: data });
      return ok(data, `${r.written} statement(s) recomputed for ${settleYear}; ${r.kept} ISSUED or SENT statement(s) kept unchanged`);
    },
  );
  action(
    app,
    '/api/year-end-statements/:id/issue',
    {
      config: perm('ANNUAL_INCOME', 'EXECUTE'),
      schema: { tags, summary: 'Write the statement spreadsheet (re-issue replaces it); a SENT statement is B001', params, response: { 200: envelope(z.object({ fileId: z.number() })) } },
    },
    async (request) => {
      const { before, after } = await issueYearEnd(app.db, store, request.params.id, actorId(request));
      request.changeLog({ menuCode: 'ANNUAL_INCOME', tableName: 'year_end_statement', recordId: request.params.id, action: 'UPDATE', before, after });
      return ok({ fileId: Number(after.file_id) });
    },
  );
  action(
    app,
    '/api/year-end-statements/:id/send',
    {
      config: perm('ANNUAL_INCOME', 'EXECUTE'),
      schema: { tags, summary: 'Mark an ISSUED statement SENT to the agent (else B001)', params, response: { 200: envelope() } },
    },
    async (request) => {
      const { before, after } = await sendYearEnd(app.db, request.params.id, actorId(request));
      request.changeLog({ menuCode: 'ANNUAL_INCOME', tableName: 'year_end_statement', recordId: request.params.id, action: 'UPDATE', before, after });
      return ok();
    },
  );
  app.get(
    '/api/year-end-statements/:id/download',
    { config: perm('ANNUAL_INCOME', 'READ'), schema: { tags, summary: 'The issued spreadsheet (binary xlsx); not issued yet: E400', params } },
    async (request, reply) => {
      const row = await (await readDb(request))
        .selectFrom('year_end_statement as y')
        .leftJoin('file_storage as f', 'f.file_id', 'y.file_id')
        .select(['y.statement_id', 'y.status', 'f.file_path', 'f.original_name'])
        .where('y.statement_id', '=', request.params.id)
        .executeTakeFirst();
      if (!row) throw notFound(`Year-end statement ${request.params.id}`);
      if (!row.file_path) throw new AppError('BAD_REQUEST', `Year-end statement ${request.params.id} is not issued yet: issue it first`);
      const opened = await store.open(row.file_path);
      if (!opened) throw new AppError('FILE_NOT_FOUND');
      return reply
        .header('content-type', XLSX_CONTENT_TYPE)
        .header('content-length', String(opened.size))
        .header('content-disposition', contentDisposition(row.original_name ?? `year-end-${request.params.id}.xlsx`))
        .send(opened.stream);
    },
  );
  registerResource(app, yearEndStatementResource);
}
