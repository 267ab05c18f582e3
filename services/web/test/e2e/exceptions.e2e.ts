import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, platform, seriousViolations, test } from './fixtures.js';
import { adminHeaders } from './intake-setup.js';

/**
 * The exception ledger's decisions on a PENDING row: approve and reject are offered to a user holding APPROVE on
 * the menu only, and a rejection needs a reason (an empty one is refused in the dialog and nothing is sent). The
 * approval itself is walked by month-journey.e2e.ts. 202501: no other spec registers, runs or closes it.
 */
const MONTH = '202501';
const SHOTS = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));

const WORDS = {
  ko: { loginId: '아이디', password: '비밀번호', signIn: '로그인', approve: '승인', reject: '반려', reason: '반려 사유', missing: '반려 사유를 입력하세요', rejected: '의 예외를 반려했습니다', actions: '작업' },
  en: { loginId: 'Login ID', password: 'Password', signIn: 'Sign in', approve: 'Approve', reject: 'Reject', reason: 'Reason for the rejection', missing: 'Say why the exception is rejected', rejected: 'rejected', actions: 'Actions' },
} as const;

async function signIn(page: Page, who: 'admin' | 'manager', lang: 'ko' | 'en') {
  const w = WORDS[lang];
  await page.goto('/login');
  if (await page.evaluate(() => localStorage.getItem('csp.session') !== null)) {
    await page.evaluate(() => localStorage.removeItem('csp.session'));
    await page.goto('/login');
  }
  await page.getByLabel(w.loginId).fill(platform.users[who].loginId);
  await page.getByLabel(w.password).fill(platform.users[who].password);
  await page.getByRole('button', { name: w.signIn }).click();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
}

/** A PENDING exception of the month for an agent of the book, told apart by its reason. */
async function register(request: APIRequestContext, reason: string): Promise<{ id: number; agentName: string }> {
  const headers = await adminHeaders(request);
  const agents = await request.get(`${platform.url}/api/agents?pageSize=5&sortField=agentId&sortOrder=ASC`, { headers });
  const agent = ((await agents.json()) as { data: { list: { agentId: number; agentName: string }[] } }).data.list[3]!;
  const made = await request.post(`${platform.url}/api/ledger/exception`, {
    headers,
    data: { agentId: agent.agentId, settleMonth: MONTH, exceptionCode: 'BONUS_SPECIAL', amount: '30000', reason },
  });
  expect(made.status(), await made.text()).toBe(200);
  return { id: ((await made.json()) as { data: { id: number } }).data.id, agentName: agent.agentName };
}

/** The page at a desk's width and at a phone's: test-results/screens/exceptions-<lang>-<name>-{1440,375}.png. */
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}${name}-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.locator('main').first()).toBeVisible();
  // The menu folds to its icons on a phone: taken once it has.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
  await page.screenshot({ path: `${SHOTS}${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

for (const lang of ['ko', 'en'] as const) {
  test.describe(`exception decisions (${lang})`, () => {
    test.use({ lang });

    test(`${lang}: a pending exception is rejected only with a reason, by a user who may approve`, async ({ page, request, consoleLog }) => {
      test.setTimeout(120_000);
      mkdirSync(SHOTS, { recursive: true });
      const w = WORDS[lang];
      const reason = `${lang === 'ko' ? '중복 등록 확인' : 'Checked for a duplicate'} ${Date.now()}`;
      const { id, agentName } = await register(request, reason);
      const sent: string[] = [];
      page.on('request', (r) => {
        if (r.method() !== 'GET' && /\/api\/ledger\/exception\/\d+\/(approve|reject)$/.test(new URL(r.url()).pathname)) sent.push(r.url());
      });
      const list = `/ledger/exception?settleMonth=${MONTH}&approveStatus=PENDING`;
      const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: reason });

      // A manager may read the ledger but not decide (no APPROVE): the row is there without the actions.
      if (lang === 'ko') {
        await signIn(page, 'manager', lang);
        await page.goto(list);
        await expect(row).toHaveCount(1);
        await expect(page.getByRole('columnheader', { name: w.actions })).toHaveCount(0);
        await expect(row.getByRole('button')).toHaveCount(0);
      }

      await signIn(page, 'admin', lang);
      await page.goto(list);
      await expect(row).toHaveCount(1);
      await expect(row.getByRole('button', { name: w.approve })).toBeVisible();
      await expect(row.getByRole('button', { name: w.reject })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `exceptions-${lang}-list`);

      // The reason is required: the dialog says so under the field and sends nothing.
      await row.getByRole('button', { name: w.reject }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(agentName);
      await expect(dialog).toContainText(reason);
      await dialog.getByRole('button', { name: w.reject, exact: true }).click();
      await expect(dialog.getByText(w.missing)).toBeVisible();
      await dialog.getByLabel(w.reason).fill('   ');
      await dialog.getByRole('button', { name: w.reject, exact: true }).click();
      await expect(dialog.getByText(w.missing)).toBeVisible();
      expect(sent).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `exceptions-${lang}-reject-empty`);

      // With a reason: rejected, said in words, and gone from the pending list.
      await dialog.getByLabel(w.reason).fill(lang === 'ko' ? '같은 시상이 이미 지급됨' : 'The same award was paid already');
      await expect(dialog.getByText(w.missing)).toBeHidden();
      await shot(page, `exceptions-${lang}-reject`);
      await dialog.getByRole('button', { name: w.reject, exact: true }).click();
      await expect(page.locator('.ant-message')).toContainText(w.rejected);
      await expect(dialog).toBeHidden();
      await expect(row).toHaveCount(0);
      expect(sent).toHaveLength(1);

      const headers = await adminHeaders(request);
      const after = await request.get(`${platform.url}/api/ledger/exception?settleMonth=${MONTH}&pageSize=100`, { headers });
      const rows = ((await after.json()) as { data: { list: { ledgerId: number; approveStatus: string; rejectReason: string }[] } }).data.list;
      expect(rows.find((r) => r.ledgerId === id)).toMatchObject({
        approveStatus: 'REJECTED',
        rejectReason: lang === 'ko' ? '같은 시상이 이미 지급됨' : 'The same award was paid already',
      });
      expect(consoleLog.errors).toEqual([]);
    });
  });
}
