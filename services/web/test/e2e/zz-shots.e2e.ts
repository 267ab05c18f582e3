import { login, platform, test } from './fixtures.js';

const ROUTES = ['/', '/settle', '/settle/batch', '/payments', '/payments/statements', '/system/users', '/receive/data', '/no/such/page'];

for (const lang of ['ko', 'en'] as const) {
  for (const width of [1440, 375]) {
    test(`shots ${lang} ${width}`, async ({ page }) => {
      test.setTimeout(600_000);
      await page.setViewportSize({ width, height: 900 });
      await login(page, 'admin');
      await page.evaluate((l) => localStorage.setItem('csp.lang', l), lang);
      const settle = await page.evaluate(async () => {
        const s = JSON.parse(localStorage.getItem('csp.session') ?? '{}');
        const r = await fetch('/api/settle?pageSize=1', { headers: { authorization: `Bearer ${s.accessToken}` } });
        return (await r.json()).data.list[0]?.settleId as number | undefined;
      });
      const agentId = platform.agentId;
      const routes = [...ROUTES, `/settle/explain/${settle}`, `/org/agents/${agentId}`, `/org/agents/${agentId}/edit`];
      for (const route of routes) {
        await page.goto(route);
        await page.waitForLoadState('networkidle').catch(() => {});
        await page.locator('.page-loading, .ant-spin-spinning').first().waitFor({ state: 'detached', timeout: 60_000 }).catch(() => {});
        await page.waitForTimeout(500);
        await page.screenshot({ path: `/tmp/shots/${lang}-${width}${route.replaceAll('/', '_')}.png`, fullPage: width === 1440 ? false : true });
      }
    });
  }
}
