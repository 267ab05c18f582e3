import { z } from 'zod';
import {
  action,
  applySort,
  envelope,
  moneyColumn,
  notFound,
  ok,
  pageResponse,
  paginate,
  perm,
  rateColumn,
  registerResource,
  sendSpreadsheet,
  streamRows,
  zId,
  type ServiceApp,
} from '@csp/service-kit';
import { installmentSequence } from '@csp/domain';
import { rulesDb } from '../rule-support.js';
import { installmentRatioResource } from './installment-ratio-resource.js';
import {
  generatePlanReq,
  generatePlanResp,
  installmentPlanListQuery,
  installmentPlanResp,
  installmentPlanSortable,
  planStatusReq,
  toInstallmentPlanResp,
  type InstallmentPlanRow,
} from './installment-plan-schemas.js';
import { generatePlan, MENU_INSTALLMENT_PLAN, planSelect, updatePlanStatus } from './installment-plan-service.js';

const tags = ['Installment plan'];
const params = z.object({ id: zId });
const sortOptions = { sortable: installmentPlanSortable, defaultSort: 'ip.plan_id' };

/**
 * Installment ratios through the generic resource (list, /excel, detail, create — no update, as the
 * menu has READ/CREATE only). Installment plans
 * are not plain CRUD: list, /excel and detail here, rows are written only by /generate and /{id}/status.
 */
export async function registerInstallmentRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, installmentRatioResource);
  const db = rulesDb(app);

  app.get(
    '/api/installment-plans',
    {
      config: perm(MENU_INSTALLMENT_PLAN, 'READ'),
      schema: { tags, summary: 'List installment plan rows', querystring: installmentPlanListQuery, response: { 200: pageResponse(installmentPlanResp) } },
    },
    async (request) => {
      const page = await paginate(planSelect(db, request.query), request.query, sortOptions);
      return ok({ ...page, list: page.list.map((r) => toInstallmentPlanResp(r as InstallmentPlanRow)) });
    },
  );

  app.get(
    '/api/installment-plans/excel',
    {
      config: perm(MENU_INSTALLMENT_PLAN, 'READ'),
      schema: { tags, summary: 'Export installment plan rows (xlsx)', querystring: installmentPlanListQuery.omit({ pageNum: true, pageSize: true }) },
    },
    async (request, reply) => {
      const qb = applySort(planSelect(db, request.query), request.query, sortOptions);
      return sendSpreadsheet(reply, {
        fileName: 'installment-plans.xlsx',
        sheetName: 'Installment plans',
        columns: [
          { header: 'Plan ID', key: 'plan_id' },
          { header: 'Contract ID', key: 'contract_id' },
          { header: 'Policy no', key: 'policy_no', width: 20 },
          { header: 'Sequence', key: 'sequence', value: (r: InstallmentPlanRow) => installmentSequence(r.plan_year, r.plan_month) },
          { header: 'Plan year', key: 'plan_year' },
          { header: 'Plan month', key: 'plan_month' },
          { header: 'Settle month', key: 'settle_month' },
          rateColumn<InstallmentPlanRow>('Ratio (%)', 'ratio_percent'),
          moneyColumn<InstallmentPlanRow>('Planned amount', 'planned_amount'),
          { header: 'Status', key: 'status' },
          moneyColumn<InstallmentPlanRow>('Paid amount', 'paid_amount'),
          { header: 'Paid at', key: 'paid_at' },
          { header: 'Payment ID', key: 'payment_id' },
        ],
        rows: streamRows<InstallmentPlanRow>(app.pool, qb.compile()),
      });
    },
  );

  app.get(
    '/api/installment-plans/:id',
    {
      config: perm(MENU_INSTALLMENT_PLAN, 'READ'),
      schema: { tags, summary: 'Get installment plan row', params, response: { 200: envelope(installmentPlanResp) } },
    },
    async (request) => {
      const row = await planSelect(db).where('ip.plan_id', '=', request.params.id).executeTakeFirst();
      if (!row) throw notFound(`InstallmentPlan ${request.params.id}`);
      return ok(toInstallmentPlanResp(row as InstallmentPlanRow));
    },
  );

  app.post(
    '/api/installment-plans/generate',
    {
      config: perm(MENU_INSTALLMENT_PLAN, 'CREATE'),
      schema: {
        tags,
        summary: 'Generate (or regenerate) the installment plan of a contract (spec 1.2 rule 9)',
        body: generatePlanReq,
        response: { 200: envelope(generatePlanResp) },
      },
    },
    async (request) => ok(await generatePlan(db, request, request.body)),
  );

  action(
    app,
    '/api/installment-plans/:id/status',
    {
      config: perm(MENU_INSTALLMENT_PLAN, 'UPDATE'),
      schema: { tags, summary: 'Set the status of an installment (PAID with paid amount, time, payment)', params, body: planStatusReq, response: { 200: envelope() } },
    },
    async (request) => {
      await updatePlanStatus(db, request, request.params.id, request.body);
      return ok();
    },
  );
}
