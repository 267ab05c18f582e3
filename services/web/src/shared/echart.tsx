import { theme } from 'antd';
import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import {
  AriaComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type AriaComponentOption,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, AriaComponent, CanvasRenderer]);

/** What a chart of this app may draw: bars and lines on a grid, with a legend and a tooltip. */
export type ChartOption = echarts.ComposeOption<
  BarSeriesOption | LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption | AriaComponentOption
>;

/**
 * The one echarts instance of a chart: created once, given each new option whole, resized with its box,
 * disposed with the component. Its text is the app's font and colour (antd's theme), and the aria component
 * describes the data to screen readers. ECharts writes its own aria-label on the box it draws in, so the
 * named image is a wrapper around that box. `option` should keep its identity between renders (useMemo).
 */
export default function EChart({ label, option, className }: { label: string; option: ChartOption; className: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const { token } = theme.useToken();

  useEffect(() => {
    if (!box.current) return;
    const instance = echarts.init(box.current);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(
      { aria: { enabled: true }, textStyle: { fontFamily: token.fontFamily, color: token.colorText }, ...option },
      { notMerge: true },
    );
  }, [option, token.fontFamily, token.colorText]);

  return (
    <div role="img" aria-label={label}>
      <div ref={box} className={className} />
    </div>
  );
}
