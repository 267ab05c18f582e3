import { expect, login, platform, seriousViolations, test } from './fixtures.js';

test.describe('organization tree and agent moves', () => {
  test('an operator opens a team in the tree, sees its agents, moves one, is told why a wrong promotion fails, and retires the agent', async ({ page, consoleLog }) => {
    test.setTimeout(240_000); // slow under a loaded 2-core machine: each step waits on a real platform
    await login(page, 'admin');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('menuitem', { name: 'Organization', exact: true }).click();
    await nav.getByRole('link', { name: 'Organization Tree' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organization Tree');

    // The tree: every node with its active agents (own and below); headquarters holds them all.
    const tree = page.getByRole('tree');
    const team = tree.getByText('영업1팀', { exact: true });
    await expect(team).toBeVisible();
    const teamCount = Number(await tree.getByRole('treeitem').filter({ hasText: '영업1팀' }).locator('.org-count').innerText());
    expect(teamCount).toBeGreaterThan(1);
    await team.click();
    await expect(page).toHaveURL(/orgId=\d+/);
    const agentsCard = page.locator('.ant-card').filter({ has: page.getByRole('heading', { name: 'Agents of 영업1팀' }) });
    // The list holds every agent of the team (retired ones too); the tree counts the active ones.
    await expect(agentsCard.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
    const total = Number(/(\d+) rows/.exec(await agentsCard.getByText(/^\d+ rows$/).innerText())![1]);
    expect(total).toBeGreaterThanOrEqual(teamCount);
    expect(await seriousViolations(page)).toEqual([]);

    // An agent of the team that no other journey uses (not the AGENT user's, not the approvals one).
    const active = agentsCard.locator('.ant-table-tbody tr.ant-table-row').filter({ has: page.locator('.status-tag[data-code="ACTIVE"]') });
    const ids = (await active.locator('td:first-child a').allInnerTexts()).map(Number).filter((id) => id !== platform.agentId && id !== platform.agentId + 1);
    const agentId = ids[ids.length - 1]!;
    await agentsCard.getByRole('link', { name: String(agentId), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/org/agents/${agentId}$`));
    const history = page.locator('.ant-card').filter({ has: page.getByRole('heading', { name: 'Organization and grade history' }) });
    const historyRows = history.locator('.ant-table-tbody tr.ant-table-row');
    // The demo book writes agents without JOIN rows: the history may start empty.
    await expect(history.locator('.ant-table-tbody')).toBeVisible();
    await expect(history.locator('.ant-spin-spinning')).toHaveCount(0);
    const before = await historyRows.count();

    // Transfer to another team: the history gains the move.
    await page.getByRole('button', { name: 'Move' }).click();
    let dialog = page.getByRole('dialog', { name: /^Move / });
    await dialog.getByLabel('Organization').click();
    await page.locator('.ant-select-tree').getByText('영업2팀', { exact: true }).click();
    await dialog.getByLabel('Reason').fill('Team rebalancing');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(historyRows).toHaveCount(before + 1);
    await expect(historyRows.last()).toContainText('영업1팀 → 영업2팀');
    await expect(historyRows.last()).toContainText('Team rebalancing');

    // A promotion to the lowest grade is refused by the server; its words sit on the grade field.
    await page.getByRole('button', { name: 'Move' }).click();
    dialog = page.getByRole('dialog', { name: /^Move / });
    await dialog.getByText('Promote', { exact: true }).click();
    await dialog.getByLabel('Grade').click();
    await page.locator('.ant-select-dropdown:visible').getByText('설계사 (1)', { exact: true }).click();
    const refused = page.waitForResponse((r) => r.url().endsWith(`/api/agents/${agentId}/move`));
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect((await refused).status()).toBe(400);
    const gradeItem = dialog.locator('.ant-form-item').filter({ has: page.getByLabel('Grade') });
    await expect(gradeItem.locator('.ant-form-item-explain-error')).toContainText(/PROMOTE needs a higher grade|gradeId/);
    await expect(dialog.getByRole('alert').first()).toContainText('E411');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(historyRows).toHaveCount(before + 1);

    // Retire: a confirmation that says what it does first.
    await page.getByRole('button', { name: 'Retire' }).click();
    dialog = page.getByRole('dialog', { name: /^Retire / });
    await expect(dialog).toContainText('cannot be moved afterwards');
    await expect(dialog.getByLabel('Leave date')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    await dialog.getByLabel('Reason').fill('Moved abroad');
    await dialog.getByRole('button', { name: 'Retire' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator('.agent-heading .status-tag')).toHaveAttribute('data-code', 'LEAVE');
    await expect(historyRows).toHaveCount(before + 2);
    await expect(historyRows.last()).toContainText('Moved abroad');
    await expect(page.getByRole('button', { name: 'Move' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Retire' })).toHaveCount(0);

    expect(await seriousViolations(page)).toEqual([]);
    expect(consoleLog.errors).toEqual([]);
  });
});
