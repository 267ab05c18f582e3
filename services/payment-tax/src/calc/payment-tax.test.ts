import { calcPaymentTax, DEFAULT_PAYMENT_TAX_RATES } from '@csp/domain';
import { describe, expect, it } from 'vitest';
import { paymentTaxOf } from './payment-tax.js';

const rates = DEFAULT_PAYMENT_TAX_RATES;
const text = (t: ReturnType<typeof paymentTaxOf>) => [t.incomeTax, t.localTax, t.vat, t.deduction, t.net].map((d) => d.toFixed(2));

describe('paymentTaxOf (rule 5 with VAT at scale 2)', () => {
  it('rounds VAT to cents where a whole-won VAT would differ', () => {
    // 123456.78: income 4074.07 -> 4074, local 407.4 -> 407, VAT 12345.678 -> 12345.68
    expect(text(paymentTaxOf({ amount: '123456.78', taxType: 'BUSINESS_INCOME', vatType: 'TAXABLE' }, rates))).toEqual([
      '4074.00',
      '407.00',
      '12345.68',
      '0.00',
      '131321.46',
    ]);
  });

  it('equals the domain for agents without VAT, deduction included', () => {
    for (const [amount, taxType, vatType] of [
      ['1000000.00', 'BUSINESS_INCOME', 'NONE'],
      ['200000.00', 'OTHER_INCOME', 'EXEMPT'],
      ['0.01', 'OTHER_INCOME', 'NONE'],
      ['9999999999999.99', 'BUSINESS_INCOME', 'EXEMPT'],
    ] as const) {
      const ours = paymentTaxOf({ amount, taxType, vatType, deduction: '12.34' }, rates);
      const domain = calcPaymentTax({ amount, taxType, vatType, deduction: '12.34' }, rates);
      expect(text(ours)).toEqual([domain.incomeTax, domain.localTax, domain.vat, domain.deduction, domain.net].map((d) => d.toFixed(2)));
    }
  });

  it('rejects an unknown tax or VAT type through the domain', () => {
    expect(() => paymentTaxOf({ amount: '1', taxType: 'SALARY', vatType: 'NONE' }, rates)).toThrow(/unknown tax type/);
    expect(() => paymentTaxOf({ amount: '1', taxType: 'OTHER_INCOME', vatType: 'ZERO' }, rates)).toThrow(/unknown VAT type/);
  });
});
