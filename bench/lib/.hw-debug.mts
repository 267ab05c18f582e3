import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, signIn, signedInContext } from './web-measure.ts';
const P = JSON.parse((await import('node:fs')).readFileSync('/tmp/hw/serve.log','utf8').replace(/^PLATFORM /,''));
const session = await signIn(P.url, P.users.admin);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
for (let k = 0; k < 2; k++) {
const ctx = await signedInContext(browser, P.url, session);
const page = await ctx.newPage();
const t0 = Date.now();
const reqs: string[] = [];
page.on('requestfinished', async (r) => { const t = r.timing(); const s = await r.sizes().catch(()=>({responseBodySize:0})); reqs.push(`${String(Date.now()-t0).padStart(5)} start ${Math.round(t.startTime - 0)} resp ${Math.round(t.responseEnd)} ${s.responseBodySize} ${r.url().replace(P.url,'')}`); });
await page.goto(P.url + '/settle?settleMonth=202507', { waitUntil: 'commit' });
await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor({ timeout: 60000 });
console.log('row at', Date.now() - t0);
const nav = await page.evaluate(() => JSON.stringify(performance.getEntriesByType('resource').map((e: any) => `${Math.round(e.startTime)}-${Math.round(e.responseEnd)} ${e.name.replace(location.origin,'')}`)));
console.log(JSON.parse(nav).join('\n'));
if (k === 1) {
  console.log((await page.locator('.ant-menu a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href') + ':' + ((a as HTMLElement).offsetParent !== null)))).join(' '));
}
await ctx.close();
}
await browser.close();
