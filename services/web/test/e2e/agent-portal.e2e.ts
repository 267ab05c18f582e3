import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { chooseLanguage, expect, platform, seriousViolations, serveMetadata, test } from './fixtures.js';

/**
 * Issue 24 item 6, DECISIONS "Settlement lifecycle" (agents serve themselves): the AGENT user of the platform
 * (e2e.agent, linked to agent platform.agentId) lands on "my settlement", reads its month in parts, opens the month
 * line by line, raises a dispute on a line, follows it, downloads its statement and asks for a withdrawal within its
 * balance; every operator page is "no access"; an operator then sees the dispute.
 *
 * The month of the platform's demo book (seed 'web-e2e'), agent 6, 2025-07, checked by hand from its explain lines:
 *   recruit: 43,000.00 x 72.11% = 31,007.30 x 50.2% = 15,565.66; 50,000.00 x 62.52% = 31,260.00 x 55.8% = 17,443.08
 *            -> 33,008.74
 *   maintenance: 27 lines -> 148,876.82;  persistency bonus (other): 66,066.00 x 15% = 9,909.90
 *   gross 33,008.74 + 148,876.82 + 9,909.90 = 191,795.46; tax estimate 3.3% = 6,329.25; net 185,466.21
 *   payment: income tax 6,329.00 + local tax 633.00 = 6,962.00; deductions 0.00; net 191,795.46 - 6,962.00 = 184,833.46
 */
const MONTH = platform.month;
const JULY = {
  recruit: '33,008.74',
  maintain: '148,876.82',
  override: '0.00',
  other: '9,909.90',
  correction: '0.00',
  exceptionPlus: '0.00',
  exceptionMinus: '0.00',
  chargeback: '0.00',
  gross: '191,795.46',
  taxEstimate: '6,329.25',
  settleNet: '185,466.21',
  tax: '6,962.00',
  deductions: '0.00',
  net: '184,833.46',
};
const LINE = {
  table: 'recruit_ledger',
  policy: 'DM0000002966',
  premium: '43,000.00',
  companyRate: '72.11%',
  payoutRate: '50.2%',
  amount: '15,565.66',
};
const SHOTS = 'test-results/agent-portal';

const cents = (text: string) => {
  const m = /^(-?)([\d,]+)\.(\d{2})$/.exec(text.replace(/^- /, '-'));
  if (!m) throw new Error(`not money: ${text}`);
  const c = BigInt(m[2]!.replace(/,/g, '')) * 100n + BigInt(m[3]!);
  return m[1] ? -c : c;
};

/** Cents as the page shows money: `18546621n` -> `185,466.21`. */
const grouped = (c: bigint) =>
  `${c / 100n}`.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + `.${String(c % 100n).padStart(2, '0')}`;

/** The admin's API: a call's envelope data, failing the test on any refusal. */
async function adminApi(request: APIRequestContext) {
  const auth = await request.post(`${platform.url}/api/auth/login`, { data: platform.users.admin });
  const headers = {
    authorization: `Bearer ${((await auth.json()) as { data: { accessToken: string } }).data.accessToken}`,
  };
  return async <T>(method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(`${platform.url}${path}`, {
      method,
      headers,
      ...(data === undefined ? {} : { data }),
    });
    const body = (await res.json()) as { success: boolean; data: T };
    expect(body.success, `${method} ${path}: ${JSON.stringify(body)}`).toBe(true);
    return body.data;
  };
}

type Lang = 'ko' | 'en';
const WORDS = {
  ko: { loginId: '아이디', password: '비밀번호', signIn: '로그인' },
  en: { loginId: 'Login ID', password: 'Password', signIn: 'Sign in' },
};

async function signInAsAgent(page: Page, lang: Lang): Promise<void> {
  await page.goto('/login');
  if (await page.evaluate(() => localStorage.getItem('csp.session') !== null)) {
    await page.evaluate(() => localStorage.removeItem('csp.session'));
    await page.goto('/login');
  }
  await page.getByLabel(WORDS[lang].loginId).fill(platform.users.agent.loginId);
  await page.getByLabel(WORDS[lang].password).fill(platform.users.agent.password);
  await page.getByRole('button', { name: WORDS[lang].signIn }).click();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
}

/** Nothing scrolls sideways, and no amount is broken over two lines. */
async function fitsTheWidth(page: Page): Promise<void> {
  const layout = await page.evaluate(() => {
    const wrapped = Array.from(document.querySelectorAll('.portal-figures dd, .money'))
      .filter((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
        return lines.size > 1;
      })
      .map((el) => el.textContent);
    return { scroll: document.documentElement.scrollWidth, width: window.innerWidth, wrapped };
  });
  expect(layout.scroll, 'horizontal scroll').toBeLessThanOrEqual(layout.width);
  expect(layout.wrapped, 'amounts wrapped over two lines').toEqual([]);
}

test.describe('the agent portal', () => {
  test.use({ lang: 'ko' });

  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    // The agent's month confirmed and paid as far as its taxes, and its statement issued (only this agent's rows:
    // the other specs pay the rest of the month themselves). Safe to run again on a kept platform.
    const call = await adminApi(request);
    const settle = await call<{ list: { settleId: number; status: string }[] }>(
      'GET',
      `/api/settle?agentId=${platform.agentId}&settleMonth=${MONTH}`,
    );
    const row = settle.list[0]!;
    if (row.status === 'CALCULATED') await call('PUT', `/api/settle/${row.settleId}/confirm`);
    let payments = await call<{ list: { paymentId: number; taxCalculatedAt: string | null }[] }>(
      'GET',
      `/api/payments?settleId=${row.settleId}`,
    );
    if (payments.list.length === 0) {
      await call('POST', `/api/payments/generate?settleMonth=${MONTH}`);
      payments = await call('GET', `/api/payments?settleId=${row.settleId}`);
    }
    const payment = payments.list[0]!;
    if (!payment.taxCalculatedAt) await call('POST', `/api/payments/${payment.paymentId}/calculate-tax`);
    const statements = await call<{ total: number }>(
      'GET',
      `/api/statements?agentId=${platform.agentId}&settleMonth=${MONTH}`,
    );
    if (statements.total === 0)
      await call('POST', '/api/statements/generate', { agentId: platform.agentId, settleMonth: MONTH });
    mkdirSync(SHOTS, { recursive: true });
  });

  test('an agent reads its month in parts, raises a dispute on a line, downloads its statement and asks for a withdrawal; an operator sees the dispute', async ({
    page,
    browser,
  }) => {
    test.setTimeout(300_000);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/(disputes|withdraw-requests)$/.test(new URL(r.url()).pathname))
        posts.push(new URL(r.url()).pathname);
    });
    await signInAsAgent(page, 'ko');

    // Lands on "my settlement"; the menu is the portal's.
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('내 정산');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByRole('link')).toHaveText(['내 정산', '내 이의 신청', '내 명세서', '출금 요청']);

    // The month: each part of gross, gross, tax, deductions and net, in words, adding up.
    const card = page.locator(`[data-month="${MONTH}"]`);
    await expect(card.getByRole('heading')).toContainText('2025-07 정산');
    await expect(card.locator('.status-tag')).toHaveText('확정');
    const figure = (key: string) => card.locator(`[data-figure="${key}"] dd`);
    for (const key of [
      'recruit',
      'maintain',
      'override',
      'other',
      'correction',
      'exceptionPlus',
      'exceptionMinus',
      'chargeback',
      'gross',
    ] as const) {
      await expect(figure(key), key).toHaveText(JULY[key]);
    }
    await expect(card.locator('[data-figure="recruit"] dt')).toHaveText('모집 수수료');
    await expect(card.locator('[data-figure="other"] dt')).toHaveText('기타 수수료');
    await expect(figure('tax')).toHaveText(`- ${JULY.tax}`);
    await expect(figure('deductions')).toHaveText(JULY.deductions);
    await expect(figure('net')).toHaveText(JULY.net);
    const parts = ['recruit', 'maintain', 'override', 'other', 'correction', 'exceptionPlus'].map((k) =>
      cents(JULY[k as keyof typeof JULY]),
    );
    const gross = parts.reduce((a, b) => a + b, 0n) - cents(JULY.exceptionMinus) - cents(JULY.chargeback);
    expect(gross).toBe(cents(JULY.gross));
    expect(gross - cents(JULY.tax) - cents(JULY.deductions)).toBe(cents(JULY.net));
    await expect(card).toContainText('항목의 합이 총액과 같습니다.');
    await page.screenshot({ path: `${SHOTS}/journey-1-my-settlement.png`, fullPage: true });

    // The month line by line, in words: no field names, no formula.
    await card.getByRole('link', { name: '2025-07 상세 보기' }).click();
    await expect(page).toHaveURL(/\/my\/settle\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('2025-07 정산 상세');
    await expect(page.getByText('아래 건의 합이 정산 금액과 같습니다.')).toBeVisible();
    const totals = page.locator('.portal-card').filter({ hasText: '이달 합계' });
    await expect(totals.locator('[data-figure="gross"] dd')).toHaveText(JULY.gross);
    await expect(totals.locator('[data-figure="taxRate"] dd')).toHaveText('3.3%');
    await expect(totals.locator('[data-figure="tax"] dd')).toHaveText(`- ${JULY.taxEstimate}`);
    await expect(totals.locator('[data-figure="net"] dd')).toHaveText(JULY.settleNet);
    await expect(page.getByText('모집 수수료: 2건')).toBeVisible();
    const body = await page.locator('.app-content > main').innerText();
    for (const raw of [
      'ledgerId',
      'exceptionPlus',
      'taxRate',
      'pct(',
      'TAX_RATE',
      'CALCULATED',
      'recruit_ledger',
    ])
      expect(body, raw).not.toContain(raw);
    const line = page.locator('.portal-line').filter({ hasText: LINE.policy });
    await expect(line.locator('[data-figure="premium"] dd')).toHaveText(LINE.premium);
    await expect(line.locator('[data-figure="companyRate"] dd')).toHaveText(LINE.companyRate);
    await expect(line.locator('[data-figure="payoutRate"] dd')).toHaveText(LINE.payoutRate);
    await expect(line.locator('[data-figure="agentAmount"] dd')).toHaveText(LINE.amount);
    await page.screenshot({ path: `${SHOTS}/journey-2-explain.png`, fullPage: true });

    // A dispute on the line: the reason is checked before anything is sent.
    await line.getByRole('button', { name: `모집 수수료, 증권 ${LINE.policy}에 이의 제기` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`대상: 모집 수수료, 증권 ${LINE.policy}`);
    await expect(dialog.getByLabel('이의 사유')).toBeVisible();
    await dialog.getByRole('button', { name: '이의 제출' }).click();
    await expect(dialog.getByText('무엇이 잘못되었는지 적어 주세요')).toBeVisible();
    await dialog.getByLabel('기대 금액(원, 선택)').fill('16,000');
    await expect(dialog.getByText('12000 또는 12000.50처럼 금액을 입력하세요')).toBeVisible();
    expect(posts).toEqual([]);
    const reason = `지급률이 계약서와 다릅니다 ${Date.now()}`;
    await dialog.getByLabel('내용').fill(reason);
    await dialog.getByLabel('기대 금액(원, 선택)').fill('16000');
    await page.screenshot({ path: `${SHOTS}/journey-3-dispute-dialog.png` });
    await dialog.getByRole('button', { name: '이의 제출' }).click();
    await expect(
      page.getByText('이의 신청이 접수되었습니다. 내 이의 신청에서 진행 상황을 볼 수 있습니다.'),
    ).toBeVisible();
    await expect(dialog).toBeHidden();
    expect(posts).toEqual(['/api/disputes']);
    await expect(line.getByText('이의 접수됨')).toBeVisible();
    await expect(line.locator('.portal-actions .status-tag')).toHaveText('미결');

    // Its disputes, with where each one stands.
    await nav.getByRole('link', { name: '내 이의 신청' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('내 이의 신청');
    const dispute = page.locator('[data-dispute]').filter({ hasText: reason });
    await expect(dispute).toHaveCount(1);
    await expect(dispute.getByRole('heading')).toContainText('모집 수수료 건');
    await expect(dispute.locator('.status-tag')).toHaveText('미결');
    await expect(dispute.locator('[data-figure="reason"] dd')).toHaveText('금액 오류');
    await expect(dispute.locator('[data-figure="claimed"] dd')).toHaveText('16,000.00');
    await expect(dispute.locator('[data-figure="month"] dd')).toHaveText('2025-07');
    await page.screenshot({ path: `${SHOTS}/journey-4-disputes.png`, fullPage: true });

    // Its statement, to download.
    await nav.getByRole('link', { name: '내 명세서' }).click();
    const statement = page.locator('[data-statement]').first();
    await expect(statement.getByRole('heading')).toContainText('2025-07 월 명세서');
    await expect(statement.locator('[data-figure="gross"] dd')).toHaveText(JULY.gross);
    await expect(statement.locator('[data-figure="net"] dd')).toHaveText(JULY.net);
    const download = page.waitForEvent('download');
    await statement.getByRole('button', { name: '2025-07 명세서 내려받기' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
    await expect(statement.locator('.status-tag')).toHaveText('내려받음');
    await page.screenshot({ path: `${SHOTS}/journey-5-statements.png`, fullPage: true });

    // A withdrawal within the balance; more than the balance is refused before it is sent.
    await nav.getByRole('link', { name: '출금 요청' }).click();
    const balance = page.locator('.portal-card').filter({ hasText: '내 잔액' });
    await expect(balance.locator('[data-figure="confirmedUnpaid"] dd')).toHaveText(JULY.settleNet);
    const before = {
      outstanding: cents((await balance.locator('[data-figure="outstanding"] dd').innerText()).trim()),
      available: cents((await balance.locator('[data-figure="available"] dd').innerText()).trim()),
    };
    // "already requested" reads as subtracted (`- 50,000.00`, or 0.00 on a first run)
    expect(cents(JULY.settleNet) + before.outstanding).toBe(before.available);
    const form = page.locator('.portal-card').filter({ hasText: '출금 요청하기' });
    await form.getByLabel('금액(원)').fill('999999999');
    await form.getByRole('button', { name: '요청 보내기' }).click();
    await expect(form.getByText(/^지금은 최대 [\d,]+\.\d{2}원까지 요청할 수 있습니다$/)).toBeVisible();
    expect(posts).toEqual(['/api/disputes']);
    await form.getByLabel('금액(원)').fill('50000');
    await form.getByLabel('메모(선택)').fill('학자금');
    await form.getByRole('button', { name: '요청 보내기' }).click();
    await expect(page.getByText('출금 요청이 결재로 넘어갔습니다.')).toBeVisible();
    expect(posts).toEqual(['/api/disputes', '/api/withdraw-requests']);
    await expect(balance.locator('[data-figure="available"] dd')).toHaveText(
      grouped(before.available - 5_000_000n),
    );
    await expect(page.locator('[data-withdraw]').first().getByRole('heading')).toContainText('50,000.00');
    await expect(page.locator('[data-withdraw]').first().locator('.status-tag')).toHaveText('요청됨');
    await page.screenshot({ path: `${SHOTS}/journey-6-withdraw.png`, fullPage: true });

    // Operator pages are "no access" for an agent, even those its role may read through the API.
    for (const path of ['/settle', `/settle/explain/1`, '/payments', '/settle/disputes']) {
      await page.goto(path);
      await expect(page.getByText('이 화면에 접근할 권한이 없습니다.'), path).toBeVisible();
    }
    await page.screenshot({ path: `${SHOTS}/journey-7-no-access.png` });

    // An operator sees the agent's dispute.
    const operator = await browser.newContext({ baseURL: platform.url });
    await serveMetadata(operator);
    await chooseLanguage(operator, 'ko');
    const op = await operator.newPage();
    await op.goto('/login');
    await op.getByLabel('아이디').fill(platform.users.admin.loginId);
    await op.getByLabel('비밀번호').fill(platform.users.admin.password);
    await op.getByRole('button', { name: '로그인' }).click();
    await expect(op.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
    await op.goto('/settle/disputes');
    const opRow = op.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: reason });
    await expect(opRow).toHaveCount(1);
    await expect(opRow.locator('.status-tag[data-code="OPEN"]')).toBeVisible();
    await op.screenshot({ path: `${SHOTS}/journey-8-operator-disputes.png`, fullPage: true });
    await operator.close();
  });

  for (const lang of ['ko', 'en'] as const) {
    test(`every portal page reads in ${lang === 'ko' ? 'Korean' : 'English'} at 1440 and 375 px, in one column on a phone without sideways scroll`, async ({
      browser,
    }) => {
      test.setTimeout(360_000);
      const pages = ['my-settlement', 'explain', 'disputes', 'statements', 'withdraw'] as const;
      {
        // One sign-in per language; the same session is looked at on a desktop and on a phone.
        const context = await browser.newContext({
          baseURL: platform.url,
          viewport: { width: 1440, height: 900 },
        });
        await serveMetadata(context);
        await chooseLanguage(context, lang);
        const page = await context.newPage();
        await signInAsAgent(page, lang);
        for (const width of [1440, 375]) {
          await page.setViewportSize({ width, height: width > 600 ? 900 : 812 });
          for (const name of pages) {
            await visit(page, name);
            await fitsTheWidth(page);
            if ((lang === 'ko' && width === 1440) || (lang === 'en' && width === 375))
              expect(await seriousViolations(page), `${name} ${lang} ${width}`).toEqual([]);
            await page.screenshot({ path: `${SHOTS}/${name}-${lang}-${width}.png`, fullPage: true });
          }
          if (width === 375) {
            // One column: the request cards sit one above the other.
            const lefts = await page
              .locator('[data-withdraw]')
              .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().left)));
            expect(new Set(lefts).size).toBeLessThanOrEqual(1);
          }
        }
        await context.close();
      }
    });
  }
});

async function visit(
  page: Page,
  name: 'my-settlement' | 'explain' | 'disputes' | 'statements' | 'withdraw',
): Promise<void> {
  const paths = {
    'my-settlement': '/',
    disputes: '/my/disputes',
    statements: '/my/statements',
    withdraw: '/my/withdraw',
  } as const;
  if (name === 'explain') {
    await page.goto('/');
    await page.locator(`[data-month="${MONTH}"] a.portal-link-button`).click();
    // On a phone the sections start collapsed (a month of contracts would be a very long page): open the first.
    const phone = (page.viewportSize()?.width ?? 1440) < 768;
    if (phone) {
      await expect(page.locator('.portal-lines .ant-collapse-item-active')).toHaveCount(0);
      await page.locator('.portal-lines .ant-collapse-header').first().click();
      await expect(page.locator('.portal-lines .ant-collapse-item-active')).toHaveCount(1);
    }
    await expect(page.locator('.portal-line').first()).toBeVisible();
  } else {
    await page.goto(paths[name]);
    await expect(page.locator('.portal-card, .ant-empty').first()).toBeVisible();
  }
  // Everything loaded: no spinner left.
  await expect(page.locator('.page-loading')).toHaveCount(0);
}
