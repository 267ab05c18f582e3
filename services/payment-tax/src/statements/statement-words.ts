import { textIn, type Lang, type LocalText } from '@csp/service-kit';

/**
 * Every text a statement file carries, in Korean and English (DECISIONS "The web client speaks the user's
 * language"; the statement's language is decided when it is issued). A template marks each value with `%s`,
 * filled in order, and a percent sign with `%%`: the same templates go to PostgreSQL's format() for the
 * line texts built in SQL (statements.repository.ts) and to `fill` here.
 */
const WORDS = {
  sheetName: ['명세서 %s', 'Statement %s'],
  colSection: ['구분', 'Section'],
  colItem: ['항목', 'Item'],
  colReference: ['산출 근거', 'Reference'],
  colAmount: ['금액(원)', 'Amount (KRW)'],

  statement: ['명세서', 'Statement'],
  titleMonthly: ['수수료 명세서', 'Commission statement'],
  titleAnnual: ['연간 수수료 명세서', 'Annual commission statement'],
  titleProof: ['소득 증명서', 'Income proof'],
  agent: ['설계사', 'Agent'],
  agentNo: ['설계사 번호 %s', 'agent %s'],
  settleMonth: ['정산월', 'Settle month'],
  period: ['%s ~ %s', '%s to %s'],
  issuedOn: ['발행일', 'Issued on'],

  // Sections of the lines that make up gross.
  recruit: ['모집 수수료', 'Recruit'],
  maintain: ['유지 수수료', 'Maintain'],
  override: ['오버라이드', 'Override'],
  exception: ['예외', 'Exception'],
  chargeback: ['환수', 'Chargeback'],
  commissionAdjustment: ['수수료 조정', 'Commission adjustment'],
  month: ['월별 지급', 'Month'],

  // Line texts (format() templates in SQL).
  ledgerLine: ['%s차년도, 보험료 %s × %s%% × %s%%', 'year %s, premium %s x %s%% x %s%%'],
  overrideFrom: ['하위 설계사 %s', 'from %s'],
  overrideLine: ['기준 금액 %s × %s%%', 'base %s x %s%%'],
  overrideCapped: ['기준 금액 %s × %s%% (한도 적용)', 'base %s x %s%% (capped)'],
  contractNo: ['계약 번호 %s', 'contract %s'],
  chargebackLine: ['실효월 %s, 분할 %s/%s회차', 'lapse %s, installment %s/%s'],
  appointmentLine: ['위촉 후 %s개월차', 'month %s after joining'],
  persistencyLine: ['%s회차 유지, 모집 수수료 %s × %s%%', 'month %s, recruit commission %s x %s%%'],
  otherLine: ['%s차년도, 기준 금액 %s × %s%%', 'year %s, base %s x %s%%'],
  programNo: ['시책 번호 %s', 'program %s'],
  incentiveLine: ['실적 %s, %s구간', 'measured %s, tier %s'],
  paymentCount: ['지급 %s건', '%s payment(s)'],

  adjustment: ['조정', 'Adjustment'],
  adjustmentItem: ['정정 및 기타 수수료', 'Corrections and other commission'],
  adjustmentReference: ['총지급액에서 위 내역을 뺀 금액', 'gross minus the lines above'],

  // The parts of gross.
  partSection: ['총지급액 구성', 'Part of gross'],
  partOther: ['기타 수수료', 'Other commission'],
  partOtherReference: ['수금, 갱신, 부활, 유지 보너스, 위촉 지원금, 시책', 'collection, renewal, reinstatement, persistency, appointment, incentive'],
  partCorrection: ['정정', 'Correction'],
  partCorrectionReference: ['해당 월에 반영된 승인 정정', 'approved corrections booked into the month'],
  partExceptionPlus: ['예외 가산', 'Exception plus'],
  partExceptionMinus: ['예외 차감', 'Exception minus'],
  deducted: ['차감', 'deducted'],
  partUnsettled: ['정산 외 지급', 'Not from a settlement row'],
  partUnsettledReference: ['정산 내역 없이 지급된 금액', 'payments without a settlement row'],

  // Totals and taxes.
  gross: ['총지급액', 'Gross'],
  incomeTax: ['소득세', 'Income tax'],
  localTax: ['지방소득세', 'Local income tax'],
  vat: ['부가가치세', 'VAT'],
  withheld: ['원천징수', 'withheld'],
  added: ['가산', 'added'],
  deduction: ['공제', 'Deduction'],
  deductions: ['공제 합계', 'Deductions'],
  totalDeducted: ['총 공제액', 'total deducted'],
  net: ['실지급액', 'Net'],
  paid: ['지급액', 'paid'],
} as const satisfies Record<string, readonly [ko: string, en: string]>;

export type StatementWordKey = keyof typeof WORDS;
export type StatementWords = Readonly<Record<StatementWordKey, string>> & { lang: Lang };

/**
 * English names of the seeded commission and exception types by code, for an English statement. A Korean
 * statement shows the type's own name (master data the operator may have renamed; V121 seeds it in Korean).
 */
export const COMMISSION_TYPE_NAMES_EN: Readonly<Record<string, string>> = {
  RECRUIT: 'Recruit commission',
  MAINTAIN: 'Maintain commission',
  OVERRIDE: 'Override',
  COLLECTION: 'Collection commission',
  RENEWAL: 'Renewal commission',
  REINSTATEMENT: 'Reinstatement commission',
  PERSISTENCY: 'Persistency bonus',
  INCENTIVE: 'Incentive',
  APPOINTMENT: 'Appointment allowance',
};
export const EXCEPTION_TYPE_NAMES_EN: Readonly<Record<string, string>> = {
  ADV_RECOVERY: 'Advance recovery',
  BONUS_SPECIAL: 'Special bonus',
  CAMPAIGN_PRIZE: 'Campaign prize',
  MISC_PLUS: 'Miscellaneous addition',
  MISC_MINUS: 'Miscellaneous deduction',
  PENALTY: 'Penalty',
  SYSTEM_ADJ_PLUS: 'System adjustment (plus)',
  SYSTEM_ADJ_MINUS: 'System adjustment (minus)',
  RETRO_PLUS: 'Retroactive addition',
  RETRO_MINUS: 'Retroactive deduction',
};

/** The word of `key` in both languages (tests, and a caller that needs the pair). */
export function statementWord(key: StatementWordKey): LocalText {
  const [ko, en] = WORDS[key];
  return { ko, en };
}

/** Every word of the table in `lang`. */
export function statementWords(lang: Lang): StatementWords {
  const words = Object.fromEntries(Object.keys(WORDS).map((k) => [k, textIn(statementWord(k as StatementWordKey), lang)]));
  return { ...(words as Record<StatementWordKey, string>), lang };
}

/** A template with its `%s` filled in order and `%%` made `%` (what PostgreSQL's format() does with them). */
export function fill(template: string, ...values: Array<string | number>): string {
  let i = 0;
  return template.replace(/%[s%]/g, (m) => (m === '%%' ? '%' : String(values[i++] ?? '')));
}

/** A settle month YYYYMM as a person reads it: YYYY-MM (STYLE "Value kinds"). */
export function monthText(settleMonth: string): string {
  return /^\d{6}$/.test(settleMonth) ? `${settleMonth.slice(0, 4)}-${settleMonth.slice(4)}` : settleMonth;
}
