import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, signIn, signedInContext, menuNavigation } from './web-measure.ts';
const P = JSON.parse((await import('node:fs')).readFileSync('/tmp/hw/serve.log','utf8').replace(/^PLATFORM /,''));
const session = await signIn(P.url, P.users.admin);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
const ctx = await signedInContext(browser, P.url, session);
const page = await ctx.newPage();
await page.goto(P.url + '/settle?settleMonth=202507');
await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor({ timeout: 60000 });
page.on('request', (r) => r.url().includes('/api/') && console.log('req', r.url().replace(P.url, '')));
for (const t of [{ path: '/contracts', api: /^\/api\/contracts(\?|$)/ }, { path: '/org/agents', api: /^\/api\/agents(\?|$)/ }, { path: '/settle', api: /^\/api\/settle(\?|$)/ }]) {
  console.log('to', t.path);
  console.log(await menuNavigation(page, t).catch((e) => String(e).slice(0, 100)), page.url());
}
await browser.close();
