// Route modules of analytics, one folder per business area.
export { registerReportRoutes } from './reports/report.routes.js';
export { registerKpiRoutes } from './kpi/kpi.routes.js';
export { registerAnomalyRoutes } from './anomalies/anomaly.routes.js';
export { registerForecastRoutes } from './forecast/forecast.routes.js';
