import { DEFAULT_PAYMENT_TAX_RATES, type PaymentTaxRates } from '@csp/domain';
import { readSystemConfig } from '@csp/service-kit';
import type { PaymentTaxDb } from '../db.js';

const RATE_KEYS = {
  businessIncome: 'TAX_RATE_BUSINESS_INCOME',
  otherIncome: 'TAX_RATE_OTHER_INCOME',
  localIncome: 'TAX_RATE_LOCAL_INCOME',
  vat: 'TAX_RATE_VAT',
} as const;

/** Rule 5 rates from system_config (spec 8); a missing or blank key falls back to the seeded default. */
export async function readPaymentTaxRates(db: PaymentTaxDb): Promise<PaymentTaxRates> {
  const values = await readSystemConfig(db, Object.values(RATE_KEYS));
  const pick = (key: keyof PaymentTaxRates) => values.get(RATE_KEYS[key])?.trim() || DEFAULT_PAYMENT_TAX_RATES[key];
  return {
    businessIncome: pick('businessIncome'),
    otherIncome: pick('otherIncome'),
    localIncome: pick('localIncome'),
    vat: pick('vat'),
  };
}

/** system_config BANK_CLOSED_DAYS: extra days without bank transfers (YYYY-MM-DD, comma or space separated). */
export async function readBankClosedDays(db: PaymentTaxDb): Promise<Set<string>> {
  const values = await readSystemConfig(db, ['BANK_CLOSED_DAYS']);
  const text = values.get('BANK_CLOSED_DAYS') ?? '';
  return new Set(text.split(/[\s,]+/).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)));
}
