import { expect, login, test } from './fixtures.js';

test.describe('pages with several resources', () => {
  test('tabs are named by the menu and the catalog in the UI language, never by raw or English resource names', async ({ page }) => {
    await login(page, 'manager');
    await page.goto('/org/agents');
    const tabs = page.getByRole('tab');
    await expect(tabs.filter({ hasText: /^Agents$/ })).toHaveCount(1);
    await expect(tabs.filter({ hasText: /^Grades$/ })).toHaveCount(1);

    await page.goto('/receive/data');
    await expect(tabs.filter({ hasText: /^Received Data$/ })).toHaveCount(1);
    await expect(tabs.filter({ hasText: /^Parse errors$/ })).toHaveCount(1);
    await expect(tabs.filter({ hasText: /^Received files$/ })).toHaveCount(1);
    for (const text of await tabs.allInnerTexts()) expect(text).not.toMatch(/^[A-Z][a-z]+[A-Z]\w*$/);

    await page.getByRole('banner').getByText('한국어').click();
    await expect(tabs.filter({ hasText: /^수신 데이터$/ })).toHaveCount(1);
    await expect(tabs.filter({ hasText: /^파싱 오류$/ })).toHaveCount(1);
    await expect(tabs.filter({ hasText: /^수신 파일$/ })).toHaveCount(1);
    await expect(tabs.filter({ hasText: /^대사 결과$/ })).toHaveCount(1);
    for (const text of await tabs.allInnerTexts()) expect(text).toMatch(/[\uac00-\ud7a3]/);
    await page.getByRole('banner').getByText('EN').click();
    await expect(tabs.filter({ hasText: /^Received Data$/ })).toHaveCount(1);
  });
});
