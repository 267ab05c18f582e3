import { z } from 'zod';
import { FORECAST_METHODS } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';
import { analyticsFilters } from '../list-filters.js';

export const MENU_FORECAST = 'KPI_ORG';

/** Next-month gross per organization (spec 2.7 forecast_kpi_monthly, 4.5). */
export const forecastResource = defineResource({
  name: 'ForecastKpi',
  path: '/api/forecast-kpi',
  table: 'forecast_kpi_monthly',
  alias: 'fc',
  menu: MENU_FORECAST,
  tags: ['Forecast'],
  baseQuery: (db) => db.selectFrom('forecast_kpi_monthly as fc').innerJoin('organization as o', 'o.org_id', 'fc.org_id'),
  fields: {
    forecastId: f.id(),
    orgId: f.ref().label('Org ID'),
    orgName: f.joined('o.org_name', 'text').search().sort().label('Organization'),
    baseMonth: f.month().filter().sort().label('Base month'),
    forecastMonth: f.month().filter('range').sort().label('Forecast month'),
    method: f.enum(FORECAST_METHODS).filter().label('Method'),
    windowMonths: f.int().label('Window (months)'),
    monthsUsed: f.json(z.array(z.string())).nullable(false).label('Months used'),
    forecastGross: f.money().sort().label('Forecast gross'),
    actualGross: f.money().label('Actual gross'),
    backtestMape: f.rate().sort().label('Backtest MAPE (%)'),
    backtestMonths: f.int().label('Backtest months'),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
  filters: analyticsFilters({ org: 'fc.org_id' }),
  defaultSort: '-forecastId',
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});
