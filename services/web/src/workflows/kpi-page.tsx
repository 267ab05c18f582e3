import { useQuery } from '@tanstack/react-query';
import { Card } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useParams } from 'react-router';
import { dynamicApi } from '../api/client.js';
import { unwrap, type PageResponse } from '../api/envelope.js';
import { ErrorNotice } from '../resources/error-notice.js';
import type { ResourceMeta } from '../resources/meta.js';
import ResourcePage from '../resources/resource-page.js';
import { Loading } from '../shell/app-layout.js';
import { useI18n } from '../i18n/i18n.js';
import type { MessageKey } from '../i18n/messages.js';
import { formatMonth } from '../shared/format.js';
import type { Series } from './kpi-chart.js';

const KpiChart = lazy(() => import('./kpi-chart.js'));
type Row = Record<string, string | number | null>;

type T = (key: MessageKey, vars?: Record<string, string | number>) => string;

interface ChartPlan {
  title: MessageKey;
  query: Record<string, string | number>;
  build(rows: Row[], t: T): { categories: string[]; series: Series[] };
}

const bySum = (rows: Row[], key: string) => rows.map((r) => r[key] ?? null);
const label = (r: Row) => String(r.orgName ?? r.agentName ?? r.orgId ?? r.agentId ?? '');

/** What each KPI page draws above its list (same API as the list, first 100 rows). */
const PLANS: Record<string, ChartPlan> = {
  monthly: {
    title: 'kpi.byMonth',
    query: { pageSize: 24, sortField: 'settleMonth', sortOrder: 'DESC' },
    build(rows, t) {
      const asc = [...rows].reverse();
      return {
        categories: asc.map((r) => formatMonth(String(r.settleMonth))),
        series: [
          { name: t('settle.recruit'), type: 'bar', values: bySum(asc, 'recruitTotal') },
          { name: t('settle.maintain'), type: 'bar', values: bySum(asc, 'maintainTotal') },
          { name: t('settle.override'), type: 'bar', values: bySum(asc, 'overrideTotal') },
          { name: t('settle.chargeback'), type: 'bar', values: bySum(asc, 'chargebackTotal') },
          { name: t('settle.net'), type: 'line', values: bySum(asc, 'netTotal') },
        ],
      };
    },
  },
  org: {
    title: 'kpi.byOrg',
    query: { pageSize: 100, sortField: 'settleMonth', sortOrder: 'DESC' },
    build(rows, t) {
      const month = rows[0]?.settleMonth;
      const latest = rows.filter((r) => r.settleMonth === month).slice(0, 30);
      return {
        categories: latest.map(label),
        series: [
          { name: t('settle.gross'), type: 'bar', values: bySum(latest, 'grossTotal') },
          { name: t('settle.net'), type: 'bar', values: bySum(latest, 'netTotal') },
        ],
      };
    },
  },
  retention: {
    title: 'kpi.retention',
    query: { pageSize: 100, sortField: 'cohortMonth', sortOrder: 'DESC' },
    build(rows, t) {
      const cohorts = [...new Set(rows.map((r) => String(r.cohortMonth)))].sort();
      const horizons = [...new Set(rows.map((r) => String(r.horizon)))].sort();
      return {
        categories: cohorts.map((c) => formatMonth(c)),
        series: horizons.map((h) => ({
          name: t('kpi.monthsLater', { months: h }),
          type: 'line' as const,
          values: cohorts.map((c) => rows.find((r) => String(r.cohortMonth) === c && String(r.horizon) === h)?.retentionRate ?? null),
        })),
      };
    },
  },
  cumulative: {
    title: 'kpi.ytd',
    query: { pageSize: 100, sortField: 'settleMonth', sortOrder: 'DESC' },
    build(rows, t) {
      const month = rows[0]?.settleMonth;
      const top = rows.filter((r) => r.settleMonth === month).slice(0, 20);
      return { categories: top.map(label), series: [{ name: t('settle.net'), type: 'bar', values: bySum(top, 'netTotal') }] };
    },
  },
};

function ChartPanel({ resource, plan }: { resource: ResourceMeta; plan: ChartPlan }) {
  const { t } = useI18n();
  const sortable = new Set(resource.fields.filter((f) => f.sort).map((f) => f.key));
  const query = Object.fromEntries(Object.entries(plan.query).filter(([k, v]) => k !== 'sortField' || sortable.has(String(v))));
  if (!('sortField' in query)) delete query.sortOrder;
  const data = useQuery({
    queryKey: ['kpi-chart', resource.path, query],
    queryFn: async () => unwrap<PageResponse<Row>>(await dynamicApi.GET(resource.path, { params: { query } })),
  });
  const chart = useMemo(() => (data.data ? plan.build(data.data.list, t) : undefined), [data.data, plan, t]);
  if (data.error) return <ErrorNotice error={data.error} />;
  return (
    <Card size="small" className="list-toolbar" title={<h2 className="card-title">{t(plan.title)}</h2>}>
      {chart ? (
        <Suspense fallback={<Loading />}>
          <KpiChart title={t(plan.title)} categories={chart.categories} series={chart.series} />
        </Suspense>
      ) : (
        <Loading />
      )}
    </Card>
  );
}

/** KPI pages: a chart of the page's KPI resource above the generic list of the same data. */
export default function KpiPage() {
  const { view = '' } = useParams();
  const plan = PLANS[view];
  const above = (r: ResourceMeta) => (plan && r.path.startsWith('/api/kpi/') && r.name.startsWith('Kpi') ? <ChartPanel resource={r} plan={plan} /> : null);
  return <ResourcePage above={above} key={view} />;
}
