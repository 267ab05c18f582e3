import { useMemo } from 'react';
import EChart, { type ChartOption } from '../../shared/echart.js';
import type { Bucket } from './simulation-api.js';
import { bucketLabel, directionOf } from './simulation-model.js';

// The same green / red as the difference cells (WCAG AA on white), grey for no change.
const COLOURS = { up: '#237804', down: '#cf1322', same: '#8c8c8c' } as const;

/** How many agents moved by how much: one bar per bucket of gross differences, losses red, gains green. */
export default function DiffHistogram({ title, buckets, countName }: { title: string; buckets: Bucket[]; countName: string }) {
  const option = useMemo<ChartOption>(
    () => ({
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
    }),
    [buckets, countName],
  );
  return <EChart label={title} option={option} className="sim-histogram" />;
}
