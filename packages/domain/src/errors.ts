/** Why a domain rule refused its input. Services map every DomainError to E411 (INVALID_PARAMETER). */
export type DomainErrorCode =
  | 'INVALID_NUMBER'
  | 'NEGATIVE_AMOUNT'
  | 'INVALID_SETTLE_MONTH'
  | 'INVALID_DATE'
  | 'INVALID_QUARTER'
  | 'INVALID_PAY_CYCLE'
  | 'INVALID_TAX_TYPE'
  | 'INVALID_VAT_TYPE'
  | 'INVALID_LIMIT_UNIT'
  | 'INVALID_INSTALLMENTS'
  | 'INVALID_RATIOS';

export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
