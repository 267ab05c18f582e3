import { loggedCall, type CallLogDeps } from './call-log.js';
import { maskKeepLast4Digits, maskNameFirstChar, summary } from './masking.js';

export interface TransferRequest {
  /** idempotency key the bank sees (`WITHDRAW#12`): a repeated request must not pay twice */
  reference: string;
  bankCode: string;
  accountNo: string;
  holderName: string;
  /** decimal string, 2 places */
  amount: string;
}

export interface TransferResult {
  txId: string;
  /** the bank's status word (`COMPLETED`) */
  status: string;
  at: Date;
}

export interface BankAdapter {
  readonly name: string;
  transfer(request: TransferRequest): Promise<TransferResult>;
}

/** The bank refused the transfer (`code` is its reason code). */
export class BankTransferError extends Error {
  override name = 'BankTransferError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The bank did not answer in time: the outcome is unknown, a retry with the same reference is safe. */
export class BankTimeoutError extends Error {
  override name = 'BankTimeoutError';
}

export type MockBankBehaviour = 'succeed' | 'fail' | 'timeout';

const digitsOf = (account: string) => account.replace(/\D/g, '');

/**
 * Deterministic bank for development and tests: per account (digits only) it succeeds, declines or times
 * out (after `timeoutMs`); the default is to succeed. Transfers are idempotent by reference: a reference
 * that succeeded answers with the same transaction id again.
 */
export class MockBankAdapter implements BankAdapter {
  readonly name = 'mock-bank';
  private readonly behaviours = new Map<string, MockBankBehaviour>();
  private readonly done = new Map<string, TransferResult>();
  /** every call in order (tests) */
  readonly calls: TransferRequest[] = [];

  constructor(
    behaviours: ReadonlyMap<string, MockBankBehaviour> = new Map(),
    private readonly timeoutMs = 100,
  ) {
    for (const [account, behaviour] of behaviours) this.behaviours.set(digitsOf(account), behaviour);
  }

  setBehaviour(accountNo: string, behaviour: MockBankBehaviour): void {
    this.behaviours.set(digitsOf(accountNo), behaviour);
  }

  behaviourOf(accountNo: string): MockBankBehaviour {
    return this.behaviours.get(digitsOf(accountNo)) ?? 'succeed';
  }

  reset(): void {
    this.behaviours.clear();
    this.done.clear();
    this.calls.length = 0;
  }

  async transfer(request: TransferRequest): Promise<TransferResult> {
    this.calls.push({ ...request });
    const previous = this.done.get(request.reference);
    if (previous) return previous;
    switch (this.behaviourOf(request.accountNo)) {
      case 'fail':
        throw new BankTransferError('DECLINED', `mock bank declined the transfer to account ${maskKeepLast4Digits(request.accountNo)}`);
      case 'timeout':
        await new Promise((resolve) => setTimeout(resolve, this.timeoutMs));
        throw new BankTimeoutError(`mock bank did not answer within ${this.timeoutMs} ms`);
      case 'succeed': {
        const result = { txId: `MOCK-${request.reference.replace(/[^A-Za-z0-9]+/g, '-')}`, status: 'COMPLETED', at: new Date() };
        this.done.set(request.reference, result);
        return result;
      }
    }
  }
}

/** The bank adapter with an external_call_log row per call (masked account and holder). */
export function withBankCallLog(bank: BankAdapter, deps: CallLogDeps): BankAdapter {
  return {
    name: bank.name,
    transfer: (request) =>
      loggedCall(
        deps,
        {
          callType: 'BANK',
          adapterName: bank.name,
          methodName: 'transfer',
          targetRef: request.reference,
          requestSummary: summary({
            reference: request.reference,
            bankCode: request.bankCode,
            accountNo: maskKeepLast4Digits(request.accountNo),
            holderName: maskNameFirstChar(request.holderName),
            amount: request.amount,
          }),
        },
        () => bank.transfer(request),
        (r) => summary({ txId: r.txId, status: r.status, at: r.at.toISOString() }),
      ),
  };
}
