import type { StepContext, Trx } from '@csp/batch';

export type ReceiveMethod = 'MANUAL' | 'EDI' | 'FTP' | 'API';

export const RECEIVE_METHODS: readonly ReceiveMethod[] = ['MANUAL', 'EDI', 'FTP', 'API'];

/** The carrier a receiver works for (company_profile, defaults when the carrier has none). */
export interface ReceiveTarget {
  companyCode: string;
  receiveMethod: ReceiveMethod;
  dataFormat: string;
  fileEncoding: string;
  apiUrl: string | null;
  ftpHost: string | null;
  ftpPath: string | null;
}

export interface ReceiveInput {
  trx: Trx;
  runId: number;
  settleMonth: string;
  target: ReceiveTarget;
  logger: StepContext['logger'];
  signal: AbortSignal;
}

export interface ReceiveResult {
  /** raw rows of the carrier and month after receiving */
  records: number;
  /** of which still PENDING (to be transformed) */
  pending: number;
}

/**
 * A receive strategy (spec 1.3 step 1): stores one raw_commission_data row per carrier record for
 * the month. It must be idempotent: receiving the same month again never duplicates raw rows.
 * A business failure that concerns only this carrier is thrown as a ReceiveError; receiveData then
 * counts the carrier as an error and goes on with the others. Anything else fails the step.
 */
export interface Receiver {
  readonly method: ReceiveMethod;
  receive(input: ReceiveInput): Promise<ReceiveResult>;
}

export class ReceiveError extends Error {
  constructor(
    readonly companyCode: string,
    message: string,
  ) {
    super(message);
    this.name = 'ReceiveError';
  }
}

export class UnsupportedReceiveMethodError extends ReceiveError {
  constructor(
    readonly method: ReceiveMethod,
    companyCode: string,
  ) {
    super(companyCode, `receive method ${method} is not supported yet (company ${companyCode})`);
    this.name = 'UnsupportedReceiveMethodError';
  }
}
