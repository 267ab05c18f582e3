import type { Decimal } from 'decimal.js';
import { D, ONE_HUNDREDTH, ZERO, toNonNegative, type DecimalInput } from './decimal.js';
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

/**
 * Rule 5 (+ rule 6 deduction): incomeTax = round0(amount x incomeRate / 100) with the rate of the
 * agent's tax type; localTax = round0(incomeTax x localRate / 100); vat = round0(amount x vatRate /
 * 100) for TAXABLE agents, 0 for NONE and EXEMPT; net = amount - incomeTax - localTax + vat -
 * deduction. The spec gives no scale for vat: it is rounded to whole won like the income taxes.
 */
export function calcPaymentTax(input: PaymentTaxInput, rates: PaymentTaxRates = DEFAULT_PAYMENT_TAX_RATES): PaymentTax {
  const amount = toNonNegative(input.amount, 'amount');
  const incomeRate = toNonNegative(incomeRateOf(input.taxType, rates), 'incomeRate');
  const taxable = isVatTaxable(input.vatType);
  const deduction = input.deduction === null || input.deduction === undefined ? ZERO : toNonNegative(input.deduction, 'deduction');
  const incomeTax = amount.times(incomeRate).times(ONE_HUNDREDTH).toDecimalPlaces(0, D.ROUND_HALF_UP);
  const localTax = incomeTax
    .times(toNonNegative(rates.localIncome, 'localRate'))
    .times(ONE_HUNDREDTH)
    .toDecimalPlaces(0, D.ROUND_HALF_UP);
  const vat = taxable
    ? amount.times(toNonNegative(rates.vat, 'vatRate')).times(ONE_HUNDREDTH).toDecimalPlaces(0, D.ROUND_HALF_UP)
    : ZERO;
  const net = amount.minus(incomeTax).minus(localTax).plus(vat).minus(deduction);
  return { amount, incomeRate, incomeTax, localTax, vat, deduction, net };
}

