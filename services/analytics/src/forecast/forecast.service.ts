import { sql } from 'kysely';
import type { Db, ForecastMethod } from '@csp/db';
import { FORECAST_WINDOWS, backtestMape, formatMoney, formatRate, forecastNext, shiftSettleMonth, type SeriesPoint } from '@csp/domain';
import { invalid } from '@csp/service-kit';
import { monthRange } from '../months.js';

/** The backtest replays the method on the last 6 months; MA6 needs 6 months before the first of them. */
export const BACKTEST_MONTHS = 6;
const HISTORY_MONTHS = BACKTEST_MONTHS + Math.max(...Object.values(FORECAST_WINDOWS));

export interface GenerateForecastInput {
  baseMonth: string;
  method: ForecastMethod;
  orgId?: number;
  userId: number | null;
}

export interface GeneratedForecast {
  forecastMonth: string;
  /** forecast_id of every organization forecast written. */
  ids: number[];
}

/**
 * Next month's gross per organization (rolled-up kpi_org_monthly) by MA3, MA6 or NAIVE, with the
 * months averaged and the backtest MAPE of the method over the last 6 months recorded on the row.
 * The arithmetic is the domain's (forecastNext, backtestMape). Regenerating replaces the row of the
 * same organization, forecast month and method. The base month must have been refreshed.
 */
export async function generateForecast(db: Db, input: GenerateForecastInput): Promise<GeneratedForecast> {
  const { baseMonth, method } = input;
  const forecastMonth = shiftSettleMonth(baseMonth, 1);
  const refreshed = await db.selectFrom('kpi_monthly').select('settle_month').where('settle_month', '=', baseMonth).executeTakeFirst();
  if (!refreshed) throw invalid('baseMonth', `no KPI for ${baseMonth} yet: refresh the month first`);

  const from = shiftSettleMonth(baseMonth, -(HISTORY_MONTHS - 1));
  let q = db
    .selectFrom('kpi_org_monthly')
    .select(['org_id', 'settle_month', 'gross_total'])
    .where('settle_month', '>=', from)
    .where('settle_month', '<=', forecastMonth);
  if (input.orgId !== undefined) q = q.where('org_id', '=', input.orgId);
  const rows = await q.execute();

  const byOrg = new Map<number, Map<string, string>>();
  for (const r of rows) {
    let months = byOrg.get(r.org_id);
    if (!months) byOrg.set(r.org_id, (months = new Map()));
    months.set(r.settle_month, r.gross_total);
  }
  const months = monthRange(from, baseMonth);
  const values = [...byOrg.entries()]
    .filter(([, m]) => m.has(baseMonth))
    .map(([orgId, m]) => {
      const series: SeriesPoint[] = months.map((month) => ({ month, value: m.get(month) ?? null }));
      const forecast = forecastNext(series, method)!;
      const backtest = backtestMape(series, method, BACKTEST_MONTHS);
      return {
        org_id: orgId,
        base_month: baseMonth,
        forecast_month: forecastMonth,
        method,
        window_months: FORECAST_WINDOWS[method],
        months_used: JSON.stringify(forecast.monthsUsed),
        forecast_gross: formatMoney(forecast.value),
        actual_gross: m.get(forecastMonth) ?? null,
        backtest_mape: backtest.mape === null ? null : formatRate(backtest.mape),
        backtest_months: backtest.months.length,
        created_by: input.userId,
        updated_by: input.userId,
      };
    });
  if (input.orgId !== undefined && values.length === 0) {
    throw invalid('orgId', `organization ${input.orgId} has no KPI for ${baseMonth}`);
  }

  const ids: number[] = [];
  for (let i = 0; i < values.length; i += 1000) {
    const written = await db
      .insertInto('forecast_kpi_monthly')
      .values(values.slice(i, i + 1000))
      .onConflict((oc) =>
        oc.columns(['org_id', 'forecast_month', 'method']).doUpdateSet({
          base_month: (eb) => eb.ref('excluded.base_month'),
          window_months: (eb) => eb.ref('excluded.window_months'),
          months_used: (eb) => eb.ref('excluded.months_used'),
          forecast_gross: (eb) => eb.ref('excluded.forecast_gross'),
          actual_gross: (eb) => eb.ref('excluded.actual_gross'),
          backtest_mape: (eb) => eb.ref('excluded.backtest_mape'),
          backtest_months: (eb) => eb.ref('excluded.backtest_months'),
          updated_by: (eb) => eb.ref('excluded.updated_by'),
          updated_at: sql`now()`,
        }),
      )
      .returning('forecast_id')
      .execute();
    ids.push(...written.map((w) => w.forecast_id));
  }
  return { forecastMonth, ids };
}

/** A refreshed month is the actual of the forecasts made for it. */
export async function recordForecastActuals(db: Db, settleMonth: string): Promise<void> {
  await sql`
    UPDATE forecast_kpi_monthly f SET actual_gross = o.gross_total, updated_at = now()
      FROM kpi_org_monthly o
     WHERE f.forecast_month = ${settleMonth} AND o.settle_month = ${settleMonth} AND o.org_id = f.org_id
       AND f.actual_gross IS DISTINCT FROM o.gross_total`.execute(db);
}
