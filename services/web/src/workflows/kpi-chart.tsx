import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, AriaComponent, CanvasRenderer]);

export interface Series {
  name: string;
  type: 'bar' | 'line';
  /** Decimal strings from the server; turned into numbers only to place them on the chart. */
  values: (string | number | null)[];
}

/** One echarts instance, resized with its box; the aria component describes the data to screen readers. */
export default function KpiChart({ title, categories, series }: { title: string; categories: string[]; series: Series[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const chart = echarts.init(box.current);
    chart.setOption({
      aria: { enabled: true },
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 80, right: 24, top: 40, bottom: 40 },
      xAxis: { type: 'category', data: categories },
      yAxis: { type: 'value' },
      series: series.map((s) => ({ name: s.name, type: s.type, data: s.values.map((v) => (v === null ? null : Number(v))) })),
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [categories, series]);
  return <div ref={box} className="kpi-chart" role="img" aria-label={title} />;
}
