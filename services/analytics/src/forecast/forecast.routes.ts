import { sql } from 'kysely';
import { z } from 'zod';
import { FORECAST_METHODS } from '@csp/db';
import { action, envelope, ok, perm, registerResource, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { forecastResource, MENU_FORECAST } from './forecast.resource.js';
import { generateForecast } from './forecast.service.js';

const generateBody = z.object({
  /** The last month with actuals; the forecast is for the month after it. */
  baseMonth: zSettleMonth,
  method: z.enum(FORECAST_METHODS),
  /** One organization; default every organization with KPIs in the base month. */
  orgId: zId.optional(),
});

const generated = z.object({
  forecastMonth: z.string(),
  method: z.enum(FORECAST_METHODS),
  count: z.number().int(),
  list: z.array(forecastResource.schemas.response),
});

/**
 * Forecast list/detail and generation (MA3, MA6, NAIVE) with the backtest MAPE on each row. KPI_ORG
 * has only READ (spec 5.5): generation writes only analytics' forecast rows and is change-logged.
 */
export async function registerForecastRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, forecastResource);

  action(
    app,
    '/api/forecast-kpi/generate',
    {
      config: perm(MENU_FORECAST, 'READ'),
      schema: {
        tags: ['Forecast'],
        summary: "Forecast next month's gross per organization (MA3, MA6 or NAIVE) with a 6-month backtest",
        body: generateBody,
        response: { 200: envelope(generated) },
      },
    },
    async (request) => {
      const { baseMonth, method, orgId } = request.body;
      const userId = request.user?.userId ?? null;
      const result = await generateForecast(app.db, { baseMonth, method, userId, ...(orgId !== undefined ? { orgId } : {}) });
      request.changeLog({
        menuCode: MENU_FORECAST,
        tableName: 'forecast_kpi_monthly',
        recordId: null,
        action: 'CREATE',
        after: { baseMonth, method, orgId: orgId ?? null, forecastIds: result.ids },
      });
      const rows =
        result.ids.length === 0
          ? []
          : await forecastResource
              .select(app.db)
              .where(sql.ref(forecastResource.idRef), 'in', result.ids)
              .orderBy(sql.ref('fc.org_id'))
              .execute();
      return ok({
        forecastMonth: result.forecastMonth,
        method,
        count: rows.length,
        list: rows.map((r) => forecastResource.toResp(r, app.cipher)),
      });
    },
  );
}
