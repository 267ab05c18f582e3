/**
 * Where the browser's main thread spends a cold load (web bench part `profile`): the V8 sampling profile of
 * one page load (Chrome DevTools Protocol Profiler), summed by function and by script, so a slow first
 * render names its code. Read it on a build without minification (`vite build --minify false` into
 * WEB_DIST_DIR with BENCH_WEB_NO_BUILD=1), else the names are the minifier's.
 */
import type { Browser } from 'playwright-core';
import { signedInContext, type Session } from './web-measure.js';
import type { ReadyProbe } from './web-waterfall.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
/** The parts of a CDP Profiler.Profile read here. */
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) by function and by script of one load of `path`, until `probe(arg)` answers. */
export async function profileLoad(
  browser: Browser,
  baseUrl: string,
  session: Session,
  path: string,
  probe: ReadyProbe,
  arg: string,
  top = 30,
): Promise<string[]> {
  const context = await signedInContext(browser, baseUrl, session);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(path, { waitUntil: 'commit' });
    const shown = await page.waitForFunction(probe, arg, { polling: 'raf', timeout: 60_000 });
    const readyMs = (await shown.jsonValue()) as number;
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    return summarize(profile, path, readyMs, top);
  } finally {
    await context.close();
  }
}

function summarize(profile: CpuProfile, path: string, readyMs: number, top: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byFunction = new Map<string, number>();
  const byScript = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const frame = byId.get(id)!.callFrame;
    const script = frame.url ? frame.url.replace(/^.*\//, '').replace(/\?.*$/, '') : `(${frame.functionName || 'native'})`;
    const name = `${frame.functionName || '(anonymous)'} ${script}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    if (frame.functionName !== '(idle)' && frame.functionName !== '(program)') total += ms;
  }
  const lines = (m: Map<string, number>, n: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => `    ${ms.toFixed(1).padStart(8)} ms  ${k}`);
  return [
    `  profile of a cold load of ${path}: ready at ${Math.round(readyMs)} ms, ${total.toFixed(0)} ms of JavaScript sampled (idle and (program) excluded)`,
    '  by script (self time):',
    ...lines(byScript, 12),
    `  top ${top} functions (self time):`,
    ...lines(byFunction, top),
  ];
}
