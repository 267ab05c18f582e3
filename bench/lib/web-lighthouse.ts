/**
 * Lighthouse 12.2.3 (pinned: 13 needs Node 22) through its node API, desktop preset, on Debian's Chromium
 * started by Playwright as a persistent profile with a remote-debugging port: Lighthouse opens its tab in
 * that profile, so the signed-in pages see the session kept in localStorage. Lighthouse's own storage reset
 * would sign the user out, so it is off and the HTTP cache is cleared before every run instead (a cold load).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session } from './web-measure.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './web-measure.js';

export interface LighthouseScore {
  page: string;
  performance: number;
  accessibility: number;
  /** Metrics of the run (ms), and the accessibility audits that failed. */
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** cumulative layout shift (unitless, 3 decimals) */
  cls: number;
  speedIndexMs: number;
  failedA11y: string[];
  /** The performance opportunities worth most (ms saved). */
  opportunities: string[];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function lighthouseScores(options: {
  baseUrl: string;
  session: Session;
  /** Pages signed out first (sign-in), then signed in. */
  signedOut: { name: string; path: string }[];
  signedIn: { name: string; path: string }[];
  runs: number;
  log: (m: string) => void;
}): Promise<LighthouseScore[][]> {
  const { chromium } = await import('playwright-core');
  const { default: lighthouse, desktopConfig } = await import('lighthouse');
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'web-bench-lh-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  const results: LighthouseScore[][] = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    const audit = async (name: string, path: string): Promise<LighthouseScore> => {
      await cdp.send('Network.clearBrowserCache');
      const result = await lighthouse(
        `${options.baseUrl}${path}`,
        { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: true },
        desktopConfig,
      );
      if (!result) throw new Error(`lighthouse gave no result for ${path}`);
      const lhr = result.lhr;
      // BENCH_LH_DIR: every report kept as JSON (open it in the Lighthouse viewer)
      if (process.env.BENCH_LH_DIR) {
        mkdirSync(process.env.BENCH_LH_DIR, { recursive: true });
        writeFileSync(join(process.env.BENCH_LH_DIR, `${name.replace(/\W+/g, '-')}-${Date.now()}.json`), JSON.stringify(lhr));
      }
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const metric = (id: string) => Math.round(Number(lhr.audits[id]?.numericValue ?? 0));
      const a11yIds = lhr.categories.accessibility?.auditRefs.map((r) => r.id) ?? [];
      const failedA11y = a11yIds.filter((id) => lhr.audits[id]?.score === 0).map((id) => `${id} (${lhr.audits[id]!.details && 'items' in lhr.audits[id]!.details! ? (lhr.audits[id]!.details as { items: unknown[] }).items.length : 0})`);
      const opportunities = Object.values(lhr.audits)
        .filter((a) => a.details?.type === 'opportunity' && Number((a.details as { overallSavingsMs?: number }).overallSavingsMs ?? 0) > 50)
        .map((a) => `${a.id} ${Math.round(Number((a.details as { overallSavingsMs?: number }).overallSavingsMs))} ms`);
      return { page: name, performance: score('performance'), accessibility: score('accessibility'), fcpMs: metric('first-contentful-paint'), lcpMs: metric('largest-contentful-paint'), tbtMs: metric('total-blocking-time'), cls: Math.round(Number(lhr.audits['cumulative-layout-shift']?.numericValue ?? 0) * 1000) / 1000, speedIndexMs: metric('speed-index'), failedA11y, opportunities };
    };
    for (let run = 1; run <= options.runs; run++) {
      const scores: LighthouseScore[] = [];
      await page.goto(`${options.baseUrl}/login`);
      await page.evaluate(() => localStorage.removeItem('csp.session'));
      for (const p of options.signedOut) scores.push(await audit(p.name, p.path));
      await page.goto(`${options.baseUrl}/login`);
      await page.evaluate((value) => localStorage.setItem('csp.session', value), JSON.stringify(options.session));
      for (const p of options.signedIn) scores.push(await audit(p.name, p.path));
      options.log(`lighthouse run ${run}: ${scores.map((s) => `${s.page} ${s.performance}/${s.accessibility}`).join(', ')}`);
      results.push(scores);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return results;
}
