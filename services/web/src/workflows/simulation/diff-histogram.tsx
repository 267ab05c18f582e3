import { BarChart } from 'echarts/charts';
import { AriaComponent, GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Bucket } from './simulation-api.js';
import { bucketLabel, directionOf } from './simulation-model.js';

echarts.use([BarChart, GridComponent, TooltipComponent, AriaComponent, CanvasRenderer]);

// The same green / red as the difference cells (WCAG AA on white), grey for no change.
const COLOURS = { up: '#237804', down: '#cf1322', same: '#8c8c8c' } as const;

/** How many agents moved by how much: one bar per bucket of gross differences, losses red, gains green. */
export function DiffHistogram({ title, buckets, countName }: { title: string; buckets: Bucket[]; countName: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const chart = echarts.init(box.current);
    chart.setOption({
      aria: { enabled: true },
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 16, bottom: 80 },
      xAxis: { type: 'category', data: buckets.map(bucketLabel), axisLabel: { rotate: 35, fontSize: 11 } },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        {
          name: countName,
          type: 'bar',
          data: buckets.map((b) => {
            // A bucket's side: by its middle (a bucket straddling 0 is the "no change" one).
            const dir = directionOf(b.from) === 'same' ? directionOf(b.to) : directionOf(b.from);
            return { value: b.count, itemStyle: { color: COLOURS[dir] } };
          }),
        },
      ],
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [buckets, countName]);
  // ECharts' aria option writes its own aria-label on the chart box, so the named image is the wrapper.
  return (
    <div role="img" aria-label={title}>
      <div ref={box} className="sim-histogram" />
    </div>
  );
}
