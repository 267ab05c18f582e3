import type { Decimal } from 'decimal.js';
import { D, ZERO, toDec, toNonNegative, type DecimalInput } from './decimal.js';
import { decOfScaled, roundHalfUpDiv, scaledOf } from './fixed-point.js';
import { pctDecimal } from './rounding.js';
import { DomainError } from './errors.js';

export type TaxType = 'BUSINESS_INCOME' | 'OTHER_INCOME';
export type VatType = 'NONE' | 'EXEMPT' | 'TAXABLE';

/** system_config keys of spec 8, in percent. */
export interface PaymentTaxRates {
  /** TAX_RATE_BUSINESS_INCOME */
  businessIncome: DecimalInput;
  /** TAX_RATE_OTHER_INCOME */
  otherIncome: DecimalInput;
  /** TAX_RATE_LOCAL_INCOME, percent of the income tax */
  localIncome: DecimalInput;
  /** TAX_RATE_VAT */
  vat: DecimalInput;
}

export const DEFAULT_PAYMENT_TAX_RATES: Readonly<PaymentTaxRates> = Object.freeze({
  businessIncome: new D('3.3'),
  otherIncome: new D('8.8'),
  localIncome: new D('10.0'),
  vat: new D('10.0'),
});

export interface PaymentTaxInput {
  amount: DecimalInput;
  taxType: string;
  vatType: string;
  /** Sum of applied deductions (rule 6); default 0. */
  deduction?: DecimalInput | null;
}

export interface PaymentTax {
  amount: Decimal;
  incomeRate: Decimal;
  incomeTax: Decimal;
  localTax: Decimal;
  vat: Decimal;
  deduction: Decimal;
  net: Decimal;
}

function incomeRateOf(taxType: string, rates: PaymentTaxRates): DecimalInput {
  if (taxType === 'BUSINESS_INCOME') return rates.businessIncome;
  if (taxType === 'OTHER_INCOME') return rates.otherIncome;
  throw new DomainError('INVALID_TAX_TYPE', `unknown tax type: ${taxType}`, 'taxType');
}

function isVatTaxable(vatType: string): boolean {
  if (vatType === 'TAXABLE') return true;
  if (vatType === 'NONE' || vatType === 'EXEMPT') return false;
  throw new DomainError('INVALID_VAT_TYPE', `unknown VAT type: ${vatType}`, 'vatType');
}

/** Rates scaled x 10^4 for the fixed-point path, computed once per rates object. */
interface ScaledRates {
  businessIncome: bigint | null;
  otherIncome: bigint | null;
  localIncome: bigint | null;
  vat: bigint | null;
}

const scaledRatesCache = new WeakMap<PaymentTaxRates, ScaledRates>();

function scaledRates(rates: PaymentTaxRates): ScaledRates {
  let scaled = scaledRatesCache.get(rates);
  if (scaled === undefined) {
    scaled = {
      businessIncome: scaledOf(rates.businessIncome, 4),
      otherIncome: scaledOf(rates.otherIncome, 4),
      localIncome: scaledOf(rates.localIncome, 4),
      vat: scaledOf(rates.vat, 4),
    };
    scaledRatesCache.set(rates, scaled);
  }
  return scaled;
}

const WON_FROM_CENTS_X_RATE = 100_000_000n; // cents x rate10k / 10^8 = whole won
const WON_X_RATE = 1_000_000n; // won x rate10k / 10^6 = whole won
const CENTS_X_RATE = 1_000_000n; // cents x rate10k / 10^6 = cents

/**
 * Rule 5 (+ rule 6 deduction): incomeTax = round0(amount x incomeRate / 100) with the rate of the
 * agent's tax type; localTax = round0(incomeTax x localRate / 100); vat = pct(amount, vatRate) (rule 1,
 * scale 2: DECISIONS "Payments and tax" — the spec names scale 0 only for the income taxes) for
 * TAXABLE agents, 0 for NONE and EXEMPT; net = amount - incomeTax - localTax + vat - deduction.
 * Rates are read at call time, so callers pass the system_config values (section 8).
 */
export function calcPaymentTax(input: PaymentTaxInput, rates: PaymentTaxRates = DEFAULT_PAYMENT_TAX_RATES): PaymentTax {
  const incomeRate = incomeRateOf(input.taxType, rates);
  const taxable = isVatTaxable(input.vatType);
  const scaled = scaledRates(rates);
  const amount = scaledOf(input.amount, 2);
  const deduction = input.deduction === null || input.deduction === undefined ? 0n : scaledOf(input.deduction, 2);
  const income10k = input.taxType === 'BUSINESS_INCOME' ? scaled.businessIncome : scaled.otherIncome;
  const { localIncome, vat: vat10k } = scaled;
  if (amount === null || deduction === null || income10k === null || localIncome === null || vat10k === null) {
    return calcPaymentTaxDecimal(input, rates);
  }
  const incomeTax = roundHalfUpDiv(amount * income10k, WON_FROM_CENTS_X_RATE);
  const localTax = roundHalfUpDiv(incomeTax * localIncome, WON_X_RATE);
  const vat = taxable ? roundHalfUpDiv(amount * vat10k, CENTS_X_RATE) : 0n;
  const net = amount - (incomeTax + localTax) * 100n + vat - deduction;
  return {
    amount: decOfScaled(amount, 2),
    incomeRate: toDec(incomeRate, 'incomeRate'),
    incomeTax: decOfScaled(incomeTax, 0),
    localTax: decOfScaled(localTax, 0),
    vat: decOfScaled(vat, 2),
    deduction: decOfScaled(deduction, 2),
    net: decOfScaled(net, 2),
  };
}

/** The same rule on decimal.js alone: inputs the fast path cannot hold exactly, and the test oracle. */
export function calcPaymentTaxDecimal(
  input: PaymentTaxInput,
  rates: PaymentTaxRates = DEFAULT_PAYMENT_TAX_RATES,
): PaymentTax {
  const amount = toNonNegative(input.amount, 'amount');
  const incomeRate = toNonNegative(incomeRateOf(input.taxType, rates), 'incomeRate');
  const taxable = isVatTaxable(input.vatType);
  const deduction = input.deduction === null || input.deduction === undefined ? ZERO : toNonNegative(input.deduction, 'deduction');
  const incomeTax = pctDecimal(amount, incomeRate, 0);
  const localTax = pctDecimal(incomeTax, toNonNegative(rates.localIncome, 'localRate'), 0);
  const vat = taxable ? pctDecimal(amount, toNonNegative(rates.vat, 'vatRate'), 2) : ZERO;
  const net = amount.minus(incomeTax).minus(localTax).plus(vat).minus(deduction);
  return { amount, incomeRate, incomeTax, localTax, vat, deduction, net };
}
