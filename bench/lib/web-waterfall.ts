/**
 * The network waterfall of one cold load (issue 24): every request of the page from the browser's
 * resource timing (start and end in ms from navigation start, as performance.now() counts), and the
 * moment the page showed what the user came for. Shows which call waits for which.
 */
import type { Browser } from 'playwright-core';
import { signedInContext, type Session } from './web-measure.js';

export interface WaterfallEntry {
  /** Path and query of the request (the page's own address for the document). */
  path: string;
  kind: string;
  startMs: number;
  endMs: number;
  /** Bytes on the wire (0 when served from the memory cache or not exposed). */
  bytes: number;
}

export interface Waterfall {
  page: string;
  readyMs: number;
  entries: WaterfallEntry[];
}

/** What "shown" means for a page: in the page, performance.now() once it shows, else false. */
export type ReadyProbe = (arg: string) => number | false;

/** The settlement list (or any list): a data row of a finished list on screen. */
export const listShown: ReadyProbe = (path) => {
  if (location.pathname !== path) return false;
  const row = document.querySelector('.ant-table-tbody tr.ant-table-row');
  if (!row || (row as HTMLElement).offsetParent === null) return false;
  if (row.closest('.ant-table-wrapper')?.querySelector('.ant-spin-spinning')) return false;
  return performance.now();
};

/**
 * The operator's cockpit: the month-close card on the month of the latest run (`YYYY-MM` in its title),
 * after that month's summary call has answered (its step texts are drawn from it).
 */
export const cockpitShown: ReadyProbe = (month) => {
  const title = document.querySelector('.month-close .ant-card-head-title');
  if (!title?.textContent?.includes(`${month.slice(0, 4)}-${month.slice(4)}`)) return false;
  const summary = performance
    .getEntriesByType('resource')
    .find((e) => e.name.includes('/api/settle/summary') && e.name.includes(`settleMonth=${month}`)) as PerformanceResourceTiming | undefined;
  if (!summary || summary.responseEnd === 0) return false;
  if (document.querySelectorAll('.month-close .close-step').length === 0) return false;
  return performance.now();
};

/** One cold load of `path` in a new context (empty cache), its requests and its ready time. */
export async function recordWaterfall(
  browser: Browser,
  baseUrl: string,
  session: Session,
  path: string,
  ready: ReadyProbe,
  readyArg: string,
  /** Another index.html for the page (an A/B of two builds on one server; the other build's assets copied beside). */
  html?: string,
): Promise<Waterfall> {
  const context = await signedInContext(browser, baseUrl, session);
  try {
    if (html !== undefined) {
      await context.route(new URL(path, baseUrl).toString(), async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, body: html });
      });
    }
    const page = await context.newPage();
    await page.goto(path, { waitUntil: 'commit' });
    const shown = await page.waitForFunction(ready, readyArg, { polling: 'raf', timeout: 60_000 });
    const readyMs = (await shown.jsonValue()) as number;
    // calls still running at "ready" (a revalidation, the next page's code) end within a moment
    await page.waitForTimeout(300);
    const entries = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const all = [
        ...(nav ? [nav] : []),
        ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]),
      ];
      return all.map((e) => {
        const url = new URL(e.name);
        return {
          path: url.pathname + url.search,
          kind: e.entryType === 'navigation' ? 'document' : e.initiatorType,
          startMs: e.startTime,
          endMs: e.responseEnd,
          bytes: e.transferSize,
        };
      });
    });
    return { page: path, readyMs, entries: entries.sort((a, b) => a.startMs - b.startMs) };
  } finally {
    await context.close();
  }
}

/** The waterfall as text lines: start, end, a bar on a 20 ms grid, and the request. */
export function formatWaterfall(w: Waterfall): string[] {
  const scale = 20;
  const lines = [`  cold load of ${w.page}: shown at ${Math.round(w.readyMs)} ms`];
  lines.push(`    ${'start'.padStart(6)} ${'end'.padStart(6)} ${'kB'.padStart(6)}  ${'kind'.padEnd(15)} request`);
  for (const e of w.entries) {
    const bar = `${' '.repeat(Math.max(0, Math.round(e.startMs / scale)))}${'#'.repeat(Math.max(1, Math.round((e.endMs - e.startMs) / scale)))}`;
    const name = e.path.length > 70 ? `${e.path.slice(0, 67)}...` : e.path;
    lines.push(
      `    ${String(Math.round(e.startMs)).padStart(6)} ${String(Math.round(e.endMs)).padStart(6)} ${(e.bytes / 1024).toFixed(1).padStart(6)}  ${e.kind.padEnd(15)} ${name.padEnd(72)} ${bar.length <= 150 ? bar : `${bar.slice(0, 147)}...`}`,
    );
  }
  return lines;
}
