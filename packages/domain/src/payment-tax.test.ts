import { describe, expect, it } from 'vitest';
import { D } from './decimal.js';
import { calcPaymentTax, DEFAULT_PAYMENT_TAX_RATES } from './payment-tax.js';

describe('payment tax', () => {
  it('uses configured rates', () => {
    const rates = { businessIncome: '3', otherIncome: '8', localIncome: '10', vat: '10' };
    // 100000 x 3% = 3000; local 300; net 96700
    const r = calcPaymentTax({ amount: '100000', taxType: 'BUSINESS_INCOME', vatType: 'NONE' }, rates);
    expect([r.incomeRate.toFixed(), r.incomeTax.toFixed(), r.localTax.toFixed(), r.net.toFixed(2)]).toEqual(['3', '3000', '300', '96700.00']);
  });

  it('reports the income rate it applied', () => {
    expect(calcPaymentTax({ amount: '1', taxType: 'OTHER_INCOME', vatType: 'NONE' }).incomeRate.toFixed()).toBe('8.8');
    expect(DEFAULT_PAYMENT_TAX_RATES.businessIncome.toString()).toBe('3.3');
  });

  it('falls back to decimal.js for a rate with more than four places', () => {
    const rates = { ...DEFAULT_PAYMENT_TAX_RATES, localIncome: '10.00001' };
    // income 33000; local 33000 x 10.00001% = 3300.0033 => 3300
    const r = calcPaymentTax({ amount: new D('1000000'), taxType: 'BUSINESS_INCOME', vatType: 'TAXABLE', deduction: '1.5' }, rates);
    expect([r.incomeTax.toFixed(), r.localTax.toFixed(), r.vat.toFixed(), r.net.toFixed(2)]).toEqual(['33000', '3300', '100000', '1063698.50']);
  });

  it('rejects unknown tax and VAT types and negative amounts', () => {
    expect(() => calcPaymentTax({ amount: '1', taxType: 'SALARY', vatType: 'NONE' })).toThrow(
      expect.objectContaining({ code: 'INVALID_TAX_TYPE', field: 'taxType' }),
    );
    expect(() => calcPaymentTax({ amount: '1', taxType: 'OTHER_INCOME', vatType: 'ZERO' })).toThrow(
      expect.objectContaining({ code: 'INVALID_VAT_TYPE', field: 'vatType' }),
    );
    expect(() => calcPaymentTax({ amount: '-1', taxType: 'OTHER_INCOME', vatType: 'NONE' })).toThrow(
      expect.objectContaining({ code: 'NEGATIVE_AMOUNT', field: 'amount' }),
    );
    expect(() => calcPaymentTax({ amount: '1', taxType: 'OTHER_INCOME', vatType: 'NONE', deduction: '-5' })).toThrow(
      expect.objectContaining({ code: 'NEGATIVE_AMOUNT', field: 'deduction' }),
    );
  });
});
