import { calcPaymentTax, type DecimalInput, type PaymentTax, type PaymentTaxRates } from '@csp/domain';

export interface PaymentTaxSource {
  amount: DecimalInput;
  taxType: string;
  vatType: string;
  /** Deductions already applied to the payment (rule 6); they stay deducted when taxes are recalculated. */
  deduction?: DecimalInput;
}

/** Rule 5 (+ rule 6) of the domain; VAT at scale 2 as DECISIONS "Payments and tax" binds it. */
export function paymentTaxOf(source: PaymentTaxSource, rates: PaymentTaxRates): PaymentTax {
  return calcPaymentTax({ amount: source.amount, taxType: source.taxType, vatType: source.vatType, deduction: source.deduction ?? null }, rates);
}
