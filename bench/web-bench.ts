/**
 * The web client on a big book (issue 24, "Must show"): the platform through the gateway (test/platform/serve.ts
 * on a book of 1,000,000 contracts and 10,000 agents from the demo generator, like bench/settlement-bench.ts),
 * driven by Debian's Chromium with Playwright, and Lighthouse 12.2.3 on the same Chromium. Prints one table:
 *   cold first load of the settlement list   new context (empty cache), navigation start -> first data row; p95 < 1.0 s
 *   in-app navigation between lists          click a menu link -> first row of the new list;               p95 < 300 ms
 *   picker search                            type an agent's name in the agent picker -> its option shown;  p95 < 300 ms
 *   Lighthouse (desktop preset)              sign-in, settlement list, cockpit: performance >= 90, accessibility >= 95
 *   pnpm exec tsx bench/web-bench.ts            (from the repo root)
 * Env: BENCH_CONTRACTS (1000000), BENCH_AGENTS (10000), BENCH_TODAY (2025-08-15: the settled month is the month
 *      before), BENCH_SEED (web-bench), BENCH_WEB_DB (csp_bench_web_<contracts>: created and generated when missing,
 *      always kept), BENCH_BASE_URL (postgres://postgres@127.0.0.1:5432/postgres),
 *      BENCH_RUNS (12 per browser figure), BENCH_LH_RUNS (3 Lighthouse rounds), BENCH_PARTS (cold,nav,picker,lighthouse; also preload-ab:
 *      index.html with and without the route preload, alternating; waterfall: the requests of one cold load of
 *      the settlement list and of the cockpit, printed with their start and end, and the cockpit's cold load figure;
 *      profile: the main thread's JavaScript of one cold load of each, by script and function (bench/lib/web-profile.ts)),
 *      BENCH_WEB_NO_BUILD=1 serves the build as it is (else `vite build` first),
 *      WEB_DIST_DIR: build into and serve this folder instead of services/web/dist (which the browser tests serve),
 *      BENCH_AB_DIST: another build's folder (e.g. of the commit before): part `build-ab` copies its assets beside the
 *      served ones and alternates cold loads of its index.html (A) and the served one (B), settlement list and cockpit,
 *      BENCH_LH_DIR: a folder for the Lighthouse reports (JSON),
 *      BENCH_WEB_PLATFORM: the `PLATFORM {json}` line of a services/web/test/platform/serve.ts already running on the book.
 * The first start on a new book settles its month (minutes on 1M contracts); later starts reuse it.
 * Figures are taken inside the page (performance.now()); the load average is printed with each part.
 * A small book: BENCH_CONTRACTS=3000 BENCH_AGENTS=60 (the browser tests' demo book size; its own database).
 */
import { loadavg } from 'node:os';
import { runFromSource } from './lib/run-from-source.js';

await runFromSource(import.meta.url, main);

/** The load average (1, 5, 15 minutes) while a part ran: six other jobs share the machine's two cores. */
function load(): string {
  return loadavg().map((l) => l.toFixed(2)).join(' ');
}

interface Row {
  figure: string;
  runs: number[];
  unit: 'ms' | 'score';
  target: string;
  ok: boolean;
  load: string;
  note?: string;
}

async function main(): Promise<void> {
  const { ensureWebBook } = await import('./lib/web-book.js');
  const { buildWebClient, startWebPlatform } = await import('./lib/web-platform.js');
  const measure = await import('./lib/web-measure.js');
  const { lighthouseScores } = await import('./lib/web-lighthouse.js');
  const waterfall = await import('./lib/web-waterfall.js');
  const { chromium } = await import('playwright-core');

  const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 1_000_000);
  const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
  const RUNS = Math.max(10, Number(process.env.BENCH_RUNS ?? 12));
  const LH_RUNS = Math.max(1, Number(process.env.BENCH_LH_RUNS ?? 3));
  const PARTS = new Set((process.env.BENCH_PARTS ?? 'cold,nav,picker,lighthouse').split(','));
  const log = (m: string) => console.log(`[web-bench] ${m}`);

  const book = await ensureWebBook({
    baseUrl: process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    dbName: process.env.BENCH_WEB_DB ?? `csp_bench_web_${CONTRACTS}`,
    agents: AGENTS,
    contracts: CONTRACTS,
    today: process.env.BENCH_TODAY ?? '2025-08-15',
    seed: process.env.BENCH_SEED ?? 'web-bench',
    log,
    migrate: !process.env.BENCH_WEB_PLATFORM,
  });
  log(`book: ${book.contracts} contracts, ${book.agents} agents, month ${book.month} (${book.origin})`);
  // the platform's gateway reads WEB_DIST_DIR from the environment it inherits
  if (process.env.BENCH_WEB_NO_BUILD !== '1') await buildWebClient(process.env.WEB_DIST_DIR);
  // BENCH_WEB_PLATFORM: the `PLATFORM {json}` line of a serve.ts already running on the book (quicker reruns)
  const running = process.env.BENCH_WEB_PLATFORM;
  const platform = running
    ? { ...(JSON.parse(running.replace(/^PLATFORM /, '')) as Awaited<ReturnType<typeof startWebPlatform>>), stop: async () => {} }
    : await startWebPlatform({ databaseUrl: book.url, month: book.month, log });
  const rows: Row[] = [];
  const lighthouseRows: string[] = [];
  const waterfallLines: string[] = [];
  try {
    const session = await measure.signIn(platform.url, platform.users.admin);
    const settleList = `/settle?settleMonth=${platform.month}`;
    const browser = await chromium.launch({ executablePath: measure.CHROMIUM_PATH, headless: true, args: measure.CHROMIUM_ARGS });
    try {
      if (PARTS.has('cold')) {
        // one cold load first, not counted: the server's first queries of the month warm its caches
        await measure.coldLoad(browser, platform.url, session, settleList);
        const runs: number[] = [];
        const walls: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const r = await measure.coldLoad(browser, platform.url, session, settleList);
          runs.push(r.inPageMs);
          walls.push(r.wallMs);
        }
        const p95 = measure.percentile(runs, 95);
        rows.push({ figure: 'cold first load, settlement list', runs, unit: 'ms', target: 'p95 < 1000 ms', ok: p95 < 1000, load: load(), note: `wall clock incl. Playwright: p50 ${Math.round(measure.percentile(walls, 50))} ms` });
        log(`cold loads (ms): ${runs.map(Math.round).join(' ')}`);
      }

      if (PARTS.has('waterfall')) {
        // not counted: the server's first queries of the month warm its caches
        await waterfall.recordWaterfall(browser, platform.url, session, settleList, waterfall.listShown, '/settle');
        await waterfall.recordWaterfall(browser, platform.url, session, '/', waterfall.cockpitShown, platform.month);
        const list = await waterfall.recordWaterfall(browser, platform.url, session, settleList, waterfall.listShown, '/settle');
        const cockpit = await waterfall.recordWaterfall(browser, platform.url, session, '/', waterfall.cockpitShown, platform.month);
        waterfallLines.push(...waterfall.formatWaterfall(list), ...waterfall.formatWaterfall(cockpit), `  (load ${load()})`);
        const runs: number[] = [];
        for (let i = 0; i < RUNS; i++) runs.push((await waterfall.recordWaterfall(browser, platform.url, session, '/', waterfall.cockpitShown, platform.month)).readyMs);
        rows.push({ figure: 'cold first load, cockpit (home)', runs, unit: 'ms', target: 'p95 < 1000 ms', ok: measure.percentile(runs, 95) < 1000, load: load(), note: "the latest run's month drawn" });
        log(`cockpit cold loads (ms): ${runs.map(Math.round).join(' ')}`);
      }

      if (PARTS.has('profile')) {
        const { profileLoad } = await import('./lib/web-profile.js');
        await waterfall.recordWaterfall(browser, platform.url, session, settleList, waterfall.listShown, '/settle'); // warms the server
        waterfallLines.push(...(await profileLoad(browser, platform.url, session, settleList, waterfall.listShown, '/settle')));
        waterfallLines.push(...(await profileLoad(browser, platform.url, session, '/', waterfall.cockpitShown, platform.month)), `  (load ${load()})`);
      }

      if (PARTS.has('build-ab')) {
        const other = process.env.BENCH_AB_DIST;
        const served = process.env.WEB_DIST_DIR;
        if (!other || !served) throw new Error('build-ab needs BENCH_AB_DIST and WEB_DIST_DIR (the served copy, which gets the other assets)');
        const { cp, readFile } = await import('node:fs/promises');
        await cp(`${other}/assets`, `${served}/assets`, { recursive: true, force: false });
        const html = await readFile(`${other}/index.html`, 'utf8');
        for (const [name, path, probe, arg] of [
          ['settlement list', settleList, waterfall.listShown, '/settle'],
          ['cockpit (home)', '/', waterfall.cockpitShown, platform.month],
        ] as const) {
          const a: number[] = [];
          const b: number[] = [];
          await waterfall.recordWaterfall(browser, platform.url, session, path, probe, arg); // not counted
          for (let i = 0; i < RUNS; i++) {
            a.push((await waterfall.recordWaterfall(browser, platform.url, session, path, probe, arg, html)).readyMs);
            b.push((await waterfall.recordWaterfall(browser, platform.url, session, path, probe, arg)).readyMs);
          }
          const abLoad = load();
          rows.push({ figure: `A/B ${name}: A (${other.replace(/^.*\//, '')})`, runs: a, unit: 'ms', target: '-', ok: true, load: abLoad });
          rows.push({ figure: `A/B ${name}: B (served)`, runs: b, unit: 'ms', target: '-', ok: true, load: abLoad, note: `p50 ratio B/A ${(measure.percentile(b, 50) / measure.percentile(a, 50)).toFixed(2)}` });
          log(`A/B ${name}: A ${a.map(Math.round).join(' ')}; B ${b.map(Math.round).join(' ')}`);
        }
      }

      if (PARTS.has('preload-ab')) {
        // vite.config.ts's route preload against the same index.html without it, alternating on one server
        const without = (html: string) => html.replace(/<script>\(function\(\)\{var r=[\s\S]*?<\/script>/, '');
        const same = (html: string) => html;
        const a: number[] = [];
        const b: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          a.push((await measure.coldLoad(browser, platform.url, session, settleList, without)).inPageMs);
          b.push((await measure.coldLoad(browser, platform.url, session, settleList, same)).inPageMs);
        }
        const abLoad = load();
        rows.push({ figure: 'A/B cold load without route preload', runs: a, unit: 'ms', target: '-', ok: true, load: abLoad });
        rows.push({ figure: 'A/B cold load with route preload', runs: b, unit: 'ms', target: '-', ok: true, load: abLoad, note: `p50 ratio with/without ${(measure.percentile(b, 50) / measure.percentile(a, 50)).toFixed(2)}` });
        log(`A/B cold loads without preload: ${a.map(Math.round).join(' ')}; with: ${b.map(Math.round).join(' ')}`);
      }

      if (PARTS.has('nav')) {
        const context = await measure.signedInContext(browser, platform.url, session);
        const page = await context.newPage();
        await page.goto(settleList);
        await page.waitForFunction(() => document.querySelector('.ant-table-tbody tr.ant-table-row') !== null, undefined, { timeout: 60_000 });
        const targets = [
          { path: '/contracts' },
          { path: '/org/agents' },
          { path: '/settle' },
        ];
        // one round first, not counted: each page's code chunk is fetched once per visit of the app
        for (const t of targets) await measure.menuNavigation(page, t);
        const runs: number[] = [];
        for (let i = 0; runs.length < Math.max(RUNS, 12); i++) runs.push(await measure.menuNavigation(page, targets[i % targets.length]!));
        await context.close();
        const p95 = measure.percentile(runs, 95);
        rows.push({ figure: 'in-app navigation between lists', runs, unit: 'ms', target: 'p95 < 300 ms', ok: p95 < 300, load: load(), note: 'contracts -> agents -> settlements' });
        log(`navigations (ms): ${runs.map(Math.round).join(' ')}`);
      }

      if (PARTS.has('picker')) {
        // names to search for: distinct agents' full names from the book
        const res = await fetch(`${platform.url}/api/agents?pageSize=100`, { headers: { authorization: `Bearer ${session.accessToken}` } });
        const agents = ((await res.json()) as { data: { list: { agentName: string }[] } }).data.list;
        const names = [...new Set(agents.map((a) => a.agentName))].slice(0, RUNS + 1);
        const context = await measure.signedInContext(browser, platform.url, session);
        const page = await context.newPage();
        await page.goto('/settle/deductions/new');
        const picker = '#Deduction-form_agentId';
        await page.locator(picker).waitFor({ timeout: 60_000 });
        await measure.pickerSearch(page, picker, names[0]!); // not counted: the picker's code and first list
        const runs: number[] = [];
        const searches: number[] = [];
        for (const name of names.slice(1)) {
          const r = await measure.pickerSearch(page, picker, name);
          runs.push(r.typedMs);
          searches.push(r.searchMs);
        }
        await context.close();
        rows.push({ figure: 'picker search (agent), typed -> option', runs, unit: 'ms', target: 'p95 < 300 ms', ok: measure.percentile(runs, 95) < 300, load: load(), note: "the picker's 300 ms debounce included" });
        rows.push({ figure: 'picker search, its call -> option', runs: searches, unit: 'ms', target: 'p95 < 300 ms', ok: measure.percentile(searches, 95) < 300, load: load(), note: 'after the debounce: server search + render' });
        log(`picker searches (ms, typed -> shown): ${runs.map(Math.round).join(' ')}; call -> shown: ${searches.map(Math.round).join(' ')}`);
      }
    } finally {
      await browser.close();
    }

    if (PARTS.has('lighthouse')) {
      const rounds = await lighthouseScores({
        baseUrl: platform.url,
        session,
        signedOut: [{ name: 'sign-in', path: '/login' }],
        signedIn: [
          { name: 'settlement list', path: settleList },
          { name: 'cockpit (home)', path: '/' },
        ],
        runs: LH_RUNS,
        log,
      });
      const lhLoad = load();
      for (const name of rounds[0]!.map((s) => s.page)) {
        const of = rounds.map((r) => r.find((s) => s.page === name)!);
        for (const category of ['performance', 'accessibility'] as const) {
          const scores = of.map((s) => s[category]);
          const target = category === 'performance' ? 90 : 95;
          rows.push({ figure: `Lighthouse ${category}, ${name}`, runs: scores, unit: 'score', target: `>= ${target}`, ok: measure.percentile(scores, 50) >= target, load: lhLoad });
        }
        const last = of[of.length - 1]!;
        lighthouseRows.push(
          `  ${name}: FCP ${of.map((s) => s.fcpMs).join('/')} ms, LCP ${of.map((s) => s.lcpMs).join('/')} ms, TBT ${of.map((s) => s.tbtMs).join('/')} ms, SI ${of.map((s) => s.speedIndexMs).join('/')} ms, CLS ${of.map((s) => s.cls).join('/')}` +
            `${last.failedA11y.length ? `; accessibility audits failed: ${last.failedA11y.join(', ')}` : ''}` +
            `${last.opportunities.length ? `; opportunities: ${last.opportunities.join(', ')}` : ''}`,
        );
      }
    }
  } finally {
    await platform.stop();
  }

  console.log(`\n[web-bench] ${book.contracts} contracts, ${book.agents} agents, month ${book.month}; Chromium ${measure.CHROMIUM_PATH}`);
  console.log(`  ${'figure'.padEnd(44)} ${'runs'.padStart(4)} ${'best'.padStart(7)} ${'p50'.padStart(7)} ${'p95'.padStart(7)}  ${'target'.padEnd(14)} ${'result'.padEnd(6)} load 1/5/15 min`);
  for (const r of rows) {
    const f = (v: number) => (r.unit === 'ms' ? `${Math.round(v)}` : String(v)).padStart(7);
    const best = r.unit === 'ms' ? Math.min(...r.runs) : Math.max(...r.runs);
    // scores: the typical round (median) in the p50 column, the worst in the p95 column
    const p50 = measure.percentile(r.runs, 50);
    const p95 = r.unit === 'ms' ? measure.percentile(r.runs, 95) : Math.min(...r.runs);
    console.log(`  ${r.figure.padEnd(44)} ${String(r.runs.length).padStart(4)} ${f(best)} ${f(p50)} ${f(p95)}  ${r.target.padEnd(14)} ${(r.ok ? 'OK' : 'MISSED').padEnd(6)} ${r.load}${r.note ? `  (${r.note})` : ''}`);
  }
  for (const line of lighthouseRows) console.log(line);
  for (const line of waterfallLines) console.log(line);
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
}
