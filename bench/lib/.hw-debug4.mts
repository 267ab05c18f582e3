import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { CHROMIUM_ARGS, signIn, signedInContext } from './web-measure.ts';
const P = JSON.parse(readFileSync('/tmp/hw/serve.log','utf8').replace(/^PLATFORM /,''));
const session = await signIn(P.url, P.users.admin);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
const ctx = await signedInContext(browser, P.url, session);
const page = await ctx.newPage();
await page.goto(P.url + '/');
await page.waitForTimeout(8000);
const axe = readFileSync(process.env.AXE!, 'utf8');
await page.addScriptTag({ content: axe });
const res = await page.evaluate(async () => (window as any).axe.run(document, { runOnly: ['color-contrast', 'link-in-text-block', 'target-size'] }));
for (const v of res.violations) { console.log(v.id, v.impact); for (const n of v.nodes.slice(0, 12)) console.log('  ', n.target.join(' '), '|', n.html.slice(0, 160), '|', (n.any[0]?.message ?? '').slice(0, 200)); }
await page.screenshot({ path: '/tmp/hw/home.png', fullPage: true });
await browser.close();
