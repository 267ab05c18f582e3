import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, monthText, platform, seriousViolations, test } from './fixtures.js';
import { adminHeaders, csv, ensureCsvProfile, ensureRecruitMappings, policiesOf } from './intake-setup.js';

/**
 * A Korean operator closes a month from the cockpit (the home page) and goes only where the cockpit sends
 * them: receive a carrier file and process it, run the month, review the carrier whose amounts differ and
 * the exception waiting for approval, hold one settlement with a reason (it stays held), confirm the month,
 * generate payments (an agent without a bank account is skipped, fixed in the agent form, then paid), taxes,
 * deductions, the transfer file, the statements, the accounting close, the tax reports and the period close.
 * The cockpit's steps move on as the month does. A month no other spec settles (WEB_E2E_JOURNEY_MONTH when
 * rerunning on a kept platform: a closed month cannot be run again). 202502: no other spec receives, runs or
 * confirms it (202503-202507 are theirs), so the counts below are exact.
 */
const MONTH = process.env.WEB_E2E_JOURNEY_MONTH ?? '202502';
const CARRIER = 'DC003';
const SHOTS = fileURLToPath(new URL('../../test-results/screens/', import.meta.url));

test.use({ lang: 'ko' });

/** A cockpit step by its title, and the state it shows (done / partial / ready / waiting). */
function step(page: Page, title: string) {
  return page.locator('.month-close .close-step').filter({ has: page.getByRole('heading', { level: 3, name: title, exact: true }) });
}
async function expectState(page: Page, title: string, state: 'done' | 'partial' | 'ready' | 'waiting') {
  await expect(step(page, title), `${title} ${state}`).toHaveClass(new RegExp(`close-${state}`));
}

/** Back to the cockpit through the breadcrumb's home link; the cockpit shows the month of the latest run. */
async function home(page: Page) {
  await page.locator('.ant-breadcrumb').getByRole('link', { name: '홈', exact: true }).click();
  await expect(page.locator('.month-close .card-title').first()).toHaveText(`${monthText(MONTH)} 월 마감`);
}

let shot = 0;
/** The whole page at a desk's width and at a phone's (375 px): test-results/screens/journey-NN-name-*.png. */
async function shots(page: Page, name: string) {
  const file = `${SHOTS}journey-${String(++shot).padStart(2, '0')}-${name}`;
  await page.screenshot({ path: `${file}-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.locator('main').first()).toBeVisible();
  await page.screenshot({ path: `${file}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

interface Agent {
  agentId: number;
  agentName: string;
  orgId: number;
  gradeId: number;
}

/**
 * Setup through the API (tolerant of a kept platform): DC003 delivers UTF-8 CSV with three mapped columns (as the
 * receive journey sets it), an exception of the month waits for approval, and one agent paid last month has no
 * bank account any more (generate skips it; the journey enters it again in the agent form).
 */
async function setup(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  await ensureCsvProfile(request, headers, CARRIER);
  await ensureRecruitMappings(request, headers, CARRIER);
  const policies = await policiesOf(request, headers, CARRIER, 3);
  const get = async <T>(path: string) => ((await (await request.get(`${platform.url}${path}`, { headers })).json()) as { data: T }).data;

  const settled = await get<{ list: { agentId: number; grossAmount: string }[] }>(`/api/settle?settleMonth=${platform.month}&pageSize=1000&sortField=agentId`);
  const paid = settled.list.filter((r) => r.agentId !== platform.agentId && r.agentId !== platform.agentId + 1 && Number(r.grossAmount) > 0);
  const noAccount = await get<Agent>(`/api/agents/${paid[1]!.agentId}`);
  const cleared = await request.put(`${platform.url}/api/agents/${noAccount.agentId}`, {
    headers,
    data: { agentName: noAccount.agentName, orgId: noAccount.orgId, gradeId: noAccount.gradeId, bankCode: null, accountNo: '' },
  });
  expect(cleared.status(), await cleared.text()).toBe(200);

  const exceptions = await get<{ total: number }>(`/api/ledger/exception?settleMonth=${MONTH}&approveStatus=PENDING&pageSize=1`);
  if (exceptions.total === 0) {
    const made = await request.post(`${platform.url}/api/ledger/exception`, {
      headers,
      data: { agentId: paid[2]!.agentId, settleMonth: MONTH, exceptionCode: 'BONUS_SPECIAL', amount: '50000', reason: '우수 설계사 특별 시상' },
    });
    expect(made.status(), await made.text()).toBe(200);
  }
  return { policies, noAccount };
}

test('a Korean operator closes a month from the cockpit, from the carrier file to the period close', async ({ page, request, consoleLog }) => {
  test.setTimeout(600_000);
  mkdirSync(SHOTS, { recursive: true });
  const { policies, noAccount } = await setup(request);

  await page.goto('/login');
  await page.getByLabel('아이디').fill(platform.users.admin.loginId);
  await page.getByLabel('비밀번호').fill(platform.users.admin.password);
  await page.getByRole('button', { name: '로그인' }).click();

  // The cockpit, on the month to close: only receiving and running are open, the rest says why it waits.
  const cockpit = page.locator('.month-close');
  await expect(cockpit).toBeVisible();
  // The home page may still be settling (menus, the latest run) when the month is typed: type it again until it holds.
  await expect(async () => {
    await cockpit.getByLabel('마감할 월').fill(monthText(MONTH));
    await cockpit.getByLabel('마감할 월').press('Enter');
    await expect(cockpit.locator('.card-title').first()).toHaveText(`${monthText(MONTH)} 월 마감`, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expectState(page, '보험사 파일', 'ready');
  await expectState(page, '정산 실행', 'ready');
  await expect(step(page, '정산 실행')).toContainText('아직 실행하지 않음');
  await expectState(page, '확정', 'waiting');
  await expect(step(page, '지급')).toContainText('먼저 월 정산을 실행하세요');
  await expect(step(page, '지급').getByRole('button', { name: '지급' })).toBeDisabled();
  await expect(step(page, '월 마감').getByRole('button', { name: '월 마감' })).toBeDisabled();
  await page.keyboard.press('Escape');
  expect(await seriousViolations(page)).toEqual([]);
  await shots(page, 'before');

  // 1. The carrier file: uploaded and processed on the receive page the cockpit opens on this month.
  await step(page, '보험사 파일').getByRole('button', { name: '데이터 수신' }).click();
  await expect(page).toHaveURL(new RegExp(`/receive/data\\?settleMonth=${MONTH}`));
  const upload = page.locator('.ant-card').filter({ has: page.getByRole('heading', { name: '보험사 파일 업로드' }) });
  await upload.getByLabel('보험사').click();
  await page.locator('.ant-select-dropdown:visible').getByText(`(${CARRIER})`).click();
  await upload.getByLabel('정산월').fill(monthText(MONTH));
  await upload.getByLabel('정산월').press('Tab');
  await upload.getByLabel('데이터 유형').click();
  await page.locator('.ant-select-dropdown:visible').getByText('모집', { exact: true }).click();
  await upload.getByLabel('이전 파일 교체').check();
  const file = csv([
    ['POLICY_NO', 'PREMIUM', 'COMM_AMT'],
    [policies[0]!, '41000', '1500.50'],
    [policies[1]!, '52000', '980'],
    [policies[2]!, '33000', '410'],
    // A policy the book does not know: a parse error, and the carrier's reported total differs from the ledger's (DIFF).
    [`NO-SUCH-POLICY-${MONTH}`, '1000', '10'],
  ]);
  await upload.locator('input[type=file]').setInputFiles({ name: `dc003-${MONTH}.csv`, mimeType: 'text/csv', buffer: file });
  await upload.getByRole('button', { name: '업로드', exact: true }).click();
  await expect(page.getByText('4행 수신')).toBeVisible();
  const status = page.locator('.ant-card').filter({ has: page.getByRole('heading', { name: '보험사별 수신 현황' }) });
  const carrier = status.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: `(${CARRIER})` });
  await carrier.getByRole('button', { name: '처리' }).click();
  await expect(carrier.locator('td').nth(4)).toHaveText('3');
  await expect(carrier.locator('td').nth(5)).toHaveText('1');
  await shots(page, 'received');

  await home(page);
  // Expected carriers: the demo's three plus any an earlier spec on this platform created (forms.e2e adds one).
  const received = await request.get(`${platform.url}/api/receive/status?settleMonth=${MONTH}`, { headers: await adminHeaders(request) });
  const { expectedCount } = ((await received.json()) as { data: { expectedCount: number } }).data;
  expect(expectedCount).toBeGreaterThanOrEqual(3);
  await expect(step(page, '보험사 파일')).toContainText(`보험사 ${expectedCount}곳 중 1곳 수신, 미결 파싱 오류 1건`);
  await expect(step(page, '보험사 파일').locator('li').filter({ hasText: '다온생명' })).toContainText('파일 1 · 건수 4 · 미결 오류 1');

  // 2. Run the month: the batch page opens on this month.
  await step(page, '정산 실행').getByRole('button', { name: '월 정산 실행' }).click();
  await expect(page).toHaveURL(new RegExp(`/settle/batch\\?settleMonth=${MONTH}`));
  await expect(page.getByLabel('정산월', { exact: true })).toHaveValue(monthText(MONTH));
  await page.locator('form[id="batch-run"]').getByRole('button', { name: '월 정산 실행' }).click();
  const run = page.locator('.run-steps');
  await expect(run.getByRole('heading').locator('.status-tag[data-code="COMPLETED"]')).toBeVisible({ timeout: 240_000 });

  // Ran: review and confirmation open, payments wait for the confirmation.
  await home(page);
  await expectState(page, '정산 실행', 'done');
  await expectState(page, '확정', 'ready');
  await expectState(page, '지급', 'waiting');
  await expect(step(page, '지급')).toContainText('먼저 모든 건을 확정하세요');
  await shots(page, 'ran');

  // 3. Review: the carrier whose amounts differ, and the exception waiting for approval.
  const review = step(page, '검토');
  await expectState(page, '검토', 'ready');
  const daon = step(page, '보험사 파일').locator('li').filter({ hasText: '다온생명' });
  await expect(daon.locator('.status-tag[data-code="DIFF"]')).toHaveText('불일치');
  await expect(daon).toContainText('차이 10');
  await expect(review).toContainText('금액이 다른 보험사 1곳');
  await expect(review).toContainText('승인 대기 예외 1건');
  await review.getByRole('link', { name: '대사 결과 보기' }).click();
  await expect(page).toHaveURL(/\/receive\/data\?resource=Reconciliation&/);
  const recon = page.getByRole('tabpanel').locator('.ant-table-tbody tr.ant-table-row');
  await expect(recon).toHaveCount(1);
  await expect(recon).toContainText('다온생명');
  await expect(recon.locator('.status-tag[data-code="DIFF"]')).toBeVisible();
  await home(page);
  await review.getByRole('link', { name: '예외 검토' }).click();
  await expect(page).toHaveURL(/\/ledger\/exception\?/);
  const pending = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '우수 설계사 특별 시상' });
  await expect(pending).toHaveCount(1);
  await expect(pending.getByRole('button', { name: '반려' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await shots(page, 'exception');
  // Approved on its row: the pending list empties and the cockpit has no exception waiting any more.
  await pending.getByRole('button', { name: '승인' }).click();
  const approve = page.locator('.ant-popconfirm');
  await expect(approve).toContainText('50,000.00원을 승인할까요?');
  await approve.getByRole('button', { name: '승인', exact: true }).click();
  await expect(page.locator('.ant-message')).toContainText('의 예외를 승인했습니다');
  await expect(pending).toHaveCount(0);
  await home(page);
  await expect(review).toContainText('승인 대기 예외 0건');
  await expect(review.getByRole('link', { name: '예외 검토' })).toHaveCount(0);

  // 4. Its settlements: an explain in words, then one held with a reason; it stays held through the close.
  await home(page);
  await step(page, '정산 실행').getByRole('link', { name: '정산 내역' }).click();
  await expect(page).toHaveURL(new RegExp(`/settle\\?settleMonth=${MONTH}`));
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const target = rows.filter({ hasNotText: noAccount.agentName }).first();
  await target.getByRole('link', { name: /산출 근거/ }).click();
  await expect(page).toHaveURL(/\/settle\/explain\/\d+$/);
  await expect(page.locator('.ant-collapse')).toBeVisible();
  await page.goBack();
  await expect(rows.first()).toBeVisible();
  const withStatus = (code: string) => rows.filter({ has: page.locator(`.status-tag[data-code="${code}"]`) });
  await rows.filter({ hasNotText: noAccount.agentName }).first().getByRole('button', { name: '보류', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('사유', { exact: true }).fill('자격 갱신 확인 중');
  await dialog.getByRole('button', { name: '보류', exact: true }).click();
  await expect(withStatus('HOLD')).toHaveCount(1);

  // The cockpit counts the hold and says why it is held.
  await home(page);
  await expect(review).toContainText('보류 1건');
  await expect(review).toContainText('보류 사유: 자격 갱신 확인 중');

  // 5. Confirm the whole month from the cockpit's confirmation step: 59 of 60, the held one stays held.
  await step(page, '확정').getByRole('button', { name: '확정', exact: true }).click();
  await page.getByRole('button', { name: '월 전체 확정' }).click();
  await page.getByRole('dialog').getByRole('button', { name: /건 확정$/ }).click();
  await expect(page.getByText(new RegExp(`^${monthText(MONTH)} \\d+건 확정`))).toBeVisible();

  await home(page);
  await expectState(page, '확정', 'partial');
  await expect(step(page, '확정')).toContainText(/확정 \d+ \/ \d+, 보류 1/);
  await expect(step(page, '확정')).toContainText('보류 건은 해제할 때까지 확정도 지급도 되지 않습니다.');
  await expectState(page, '지급', 'ready');
  await expectState(page, '명세서', 'ready');
  await shots(page, 'confirmed');

  // 6. Payments: generate skips the agent without a bank account and says so, the cockpit links its form.
  await step(page, '지급').getByRole('button', { name: '지급', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/payments\\?settleMonth=${MONTH}`));
  await page.getByRole('button', { name: '1. 지급 생성' }).click();
  await expect(page.getByText(/지급 \d+건 생성/)).toBeVisible();
  await expect(page.getByText('설계사 1명 미지급: 계좌를 등록한 후 다시 생성하세요')).toBeVisible();
  await shots(page, 'skipped');

  await home(page);
  const payments = step(page, '지급');
  await expect(payments).toContainText('계좌가 없어 빠진 설계사 1명');
  await payments.getByRole('link', { name: `${noAccount.agentName} 계좌 입력` }).click();
  await expect(page).toHaveURL(new RegExp(`/org/agents/${noAccount.agentId}$`));
  await page.getByRole('button', { name: '수정', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/org/agents/${noAccount.agentId}/edit$`));
  await shots(page, 'agent-form');
  await page.getByLabel('은행', { exact: true }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
  await page.locator('.masked-field[data-field="accountNo"] input').fill('110-220-330440');
  await page.getByRole('button', { name: '저장', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/org/agents/${noAccount.agentId}$`));

  // Generated again: the agent is paid now; then taxes, deductions and the transfer file.
  await home(page);
  await step(page, '지급').getByRole('button', { name: '지급', exact: true }).click();
  await page.getByRole('button', { name: '1. 지급 생성' }).click();
  await expect(page.getByText('지급 1건 생성')).toBeVisible();
  await page.getByRole('button', { name: '2. 세금 계산' }).click();
  await expect(page.getByText(/지급 \d+건 세금 계산/)).toBeVisible();
  await page.getByRole('button', { name: '3. 공제 적용' }).click();
  await expect(page.getByText(/공제 \d+건/)).toBeVisible();
  await page.getByRole('button', { name: '4. 이체 파일 생성' }).click();
  await expect(page.getByText(/에 지급 \d+건$/)).toBeVisible();
  await shots(page, 'transfer-file');

  await home(page);
  await expectState(page, '지급', 'done');
  await expect(step(page, '지급')).not.toContainText('계좌가 없어');

  // 7. Statements: issued for the month, one downloaded.
  await step(page, '명세서').getByRole('button', { name: '명세서 발행' }).click();
  await expect(page).toHaveURL(new RegExp(`/payments/statements\\?settleMonth=${MONTH}`));
  const issue = page.locator('.ant-card').filter({ hasText: '월 명세서 발행' });
  await issue.getByRole('button', { name: '명세서 발행' }).click();
  await expect(issue.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100', { timeout: 120_000 });
  const first = page.locator('.ant-table-tbody tr.ant-table-row').first();
  await expect(first).toBeVisible({ timeout: 30_000 });
  const statement = page.waitForEvent('download');
  await first.getByRole('button', { name: '다운로드' }).click();
  expect((await statement).suggestedFilename()).toMatch(/\.xlsx$/);
  await shots(page, 'statements');

  // 8. The accounting close, run in place.
  await home(page);
  await expectState(page, '명세서', 'done');
  const accounting = step(page, '회계 마감');
  await expectState(page, '회계 마감', 'ready');
  await accounting.getByRole('button', { name: '회계 마감 실행' }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: '회계 마감 실행' }).click();
  await expect(accounting.getByRole('status')).toContainText('회계 마감 완료');
  await expectState(page, '회계 마감', 'done');
  await expect(accounting).toContainText(/전표 \S+로 마감/);

  // 9. The tax reports of the quarter, recomputed from its payments.
  const taxes = step(page, '세무 신고 자료');
  await expectState(page, '세무 신고 자료', 'ready');
  await taxes.getByRole('button', { name: '신고 자료 만들기' }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: '신고 자료 만들기' }).click();
  await expect(taxes.getByRole('status')).toContainText('다시 계산');
  await expectState(page, '세무 신고 자료', 'done');
  await shots(page, 'books-and-taxes');

  // 10. The period close: the month closes with its held row held.
  const period = step(page, '월 마감');
  await expectState(page, '월 마감', 'ready');
  await period.getByRole('button', { name: '월 마감', exact: true }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: '월 마감', exact: true }).click();
  await expect(period.getByRole('status')).toContainText(`${monthText(MONTH)} 마감 완료`);
  await expectState(page, '월 마감', 'done');
  await expectState(page, '실적 지표', 'ready');
  expect(await seriousViolations(page)).toEqual([]);
  await shots(page, 'closed');

  await step(page, '실적 지표').getByRole('button', { name: '실적 지표 보기' }).click();
  await expect(page).toHaveURL(/\/kpi\/monthly/);
  await expect(page.locator('main main').getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
  expect(consoleLog.errors).toEqual([]);
});
