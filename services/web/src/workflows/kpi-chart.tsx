import { useMemo } from 'react';
import EChart, { type ChartOption } from '../shared/echart.js';

export interface Series {
  name: string;
  type: 'bar' | 'line';
  /** Decimal strings from the server; turned into numbers only to place them on the chart. */
  values: (string | number | null)[];
}

/** A KPI page's chart: bars and lines over months or organizations, with a legend. */
export default function KpiChart({ title, categories, series }: { title: string; categories: string[]; series: Series[] }) {
  const option = useMemo<ChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 80, right: 24, top: 40, bottom: 40 },
      xAxis: { type: 'category', data: categories },
      yAxis: { type: 'value' },
      series: series.map((s) => ({ name: s.name, type: s.type, data: s.values.map((v) => (v === null ? null : Number(v))) })),
    }),
    [categories, series],
  );
  return <EChart label={title} option={option} className="kpi-chart" />;
}
