import type { MessageKey } from '../../i18n/messages.js';

/**
 * The agent portal's figures, kept as decimal strings (money never becomes a JS number): sums and
 * comparisons go through integer cents (BigInt).
 */

const MONEY = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/** `1234.5` -> 123450n; undefined when the text is no money of at most two places. */
export function toCents(text: string | null | undefined): bigint | undefined {
  if (text == null) return undefined;
  const m = MONEY.exec(text.trim());
  if (!m) return undefined;
  const cents = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] ? -cents : cents;
}

/** 123450n -> `1234.50`. */
export function fromCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** The settle row fields the month view reads (`/api/settle` list row). */
export interface SettleFigures {
  settleId: number;
  settleMonth: string;
  status: string;
  recruitTotal: string;
  maintainTotal: string;
  overrideTotal: string;
  otherTotal: string;
  correctionTotal: string;
  exceptionPlus: string;
  exceptionMinus: string;
  chargebackTotal: string;
  grossAmount: string;
  taxAmount: string;
  netAmount: string;
}

/** The payment of the month (`/api/payments` list row), when the month was paid. */
export interface PaymentFigures {
  settleId: number | null;
  incomeTaxAmount: string | null;
  localTaxAmount: string | null;
  vatAmount: string | null;
  deductionAmount: string | null;
  netAmount: string | null;
  /** Set once the payment's taxes are calculated: only then are its tax and net the month's. */
  taxCalculatedAt: string | null;
}

export interface MonthPart {
  key: 'recruit' | 'maintain' | 'override' | 'other' | 'correction' | 'exceptionPlus' | 'exceptionMinus' | 'chargeback';
  label: MessageKey;
  /** As stored (positive for a part that is subtracted). */
  amount: string;
  /** Subtracted from gross (exceptions minus, chargebacks). */
  minus: boolean;
}

export interface MonthView {
  settleId: number;
  settleMonth: string;
  status: string;
  parts: MonthPart[];
  gross: string;
  /** The payment's taxes (income + local + VAT) once calculated, else the settlement's estimate. */
  tax: string;
  /** Deductions of the month's payment; null until the payment's taxes are calculated. */
  deductions: string | null;
  /** The payment's net once its taxes are calculated, else the settlement's net. */
  net: string;
  /** Whether the parts add up to gross (plus parts minus minus parts). */
  partsAddUp: boolean;
}

const PARTS: { key: MonthPart['key']; field: keyof SettleFigures; label: MessageKey; minus: boolean }[] = [
  { key: 'recruit', field: 'recruitTotal', label: 'portal.part.recruit', minus: false },
  { key: 'maintain', field: 'maintainTotal', label: 'portal.part.maintain', minus: false },
  { key: 'override', field: 'overrideTotal', label: 'portal.part.override', minus: false },
  { key: 'other', field: 'otherTotal', label: 'portal.part.other', minus: false },
  { key: 'correction', field: 'correctionTotal', label: 'portal.part.correction', minus: false },
  { key: 'exceptionPlus', field: 'exceptionPlus', label: 'portal.part.exceptionPlus', minus: false },
  { key: 'exceptionMinus', field: 'exceptionMinus', label: 'portal.part.exceptionMinus', minus: true },
  { key: 'chargeback', field: 'chargebackTotal', label: 'portal.part.chargeback', minus: true },
];

/** Sum of the parts with their signs, in cents. */
export function partsTotal(parts: readonly MonthPart[]): bigint {
  return parts.reduce((sum, p) => {
    const c = toCents(p.amount) ?? 0n;
    return p.minus ? sum - c : sum + c;
  }, 0n);
}

/** The months of an agent, newest first, each with its parts of gross and the payment's deductions. */
export function monthViews(rows: readonly SettleFigures[], payments: readonly PaymentFigures[]): MonthView[] {
  const bySettle = new Map(payments.filter((p) => p.settleId != null).map((p) => [p.settleId, p]));
  return [...rows]
    .sort((a, b) => (a.settleMonth === b.settleMonth ? b.settleId - a.settleId : a.settleMonth < b.settleMonth ? 1 : -1))
    .map((r) => {
      const parts = PARTS.map((p) => ({ key: p.key, label: p.label, amount: r[p.field] as string, minus: p.minus }));
      const found = bySettle.get(r.settleId);
      const paid = found?.taxCalculatedAt && found.netAmount != null ? found : undefined;
      const taxes = paid ? [paid.incomeTaxAmount, paid.localTaxAmount, paid.vatAmount].reduce((sum, v) => sum + (toCents(v ?? '0') ?? 0n), 0n) : undefined;
      return {
        settleId: r.settleId,
        settleMonth: r.settleMonth,
        status: r.status,
        parts,
        gross: r.grossAmount,
        tax: taxes === undefined ? r.taxAmount : fromCents(taxes),
        deductions: paid ? (paid.deductionAmount ?? '0.00') : null,
        net: paid?.netAmount ?? r.netAmount,
        partsAddUp: partsTotal(parts) === toCents(r.grossAmount),
      };
    });
}

/** The row a dispute on an explain line points at: its ledger table and id, else the month's settle row. */
export function disputeTarget(section: string, line: Record<string, unknown>, settleId: number): { targetTable: string; targetId: number } {
  const id = (key: string) => (typeof line[key] === 'number' ? (line[key] as number) : undefined);
  const pick = (table: string, key: string) => {
    const value = id(key);
    return value === undefined ? { targetTable: 'settle_master', targetId: settleId } : { targetTable: table, targetId: value };
  };
  switch (section) {
    case 'recruit':
      return pick('recruit_ledger', 'ledgerId');
    case 'maintain':
      return pick('maintain_ledger', 'ledgerId');
    case 'override':
      return pick('override_settle', 'osId');
    case 'exceptionPlus':
    case 'exceptionMinus':
    case 'excluded':
      return pick('exception_ledger', 'ledgerId');
    case 'chargeback':
      return pick('chargeback', 'cbId');
    default:
      return { targetTable: 'settle_master', targetId: settleId };
  }
}

/** A reason code suggested for a dispute on a line of this section (the agent may choose another). */
export function suggestedReason(section: string): string {
  if (section === 'chargeback') return 'CHARGEBACK';
  if (section === 'exceptionPlus' || section === 'exceptionMinus' || section === 'excluded') return 'EXCEPTION';
  return 'WRONG_AMOUNT';
}

/** Whether `amount` is money above 0 and at most `available` (both decimal strings). */
export function withinBalance(amount: string, available: string | null | undefined): 'ok' | 'invalid' | 'tooMuch' {
  const a = toCents(amount);
  if (a === undefined || a <= 0n) return 'invalid';
  const max = toCents(available);
  return max !== undefined && a > max ? 'tooMuch' : 'ok';
}
