import type { Database } from '@csp/db';
import type { Kysely } from 'kysely';
import type { CallType } from '@csp/db';

export interface CallLogDeps {
  /** A pool-backed instance (not a transaction): every row is written in its own transaction. */
  db: Kysely<Database>;
  logger: { warn(obj: object, msg?: string): void };
}

export interface CallDescription {
  callType: CallType;
  adapterName: string;
  methodName: string;
  /** `WITHDRAW#12`, `APPROVAL#3` */
  targetRef: string | null;
  /** masked one-line JSON */
  requestSummary: string;
}

/**
 * Runs one adapter call and writes its external_call_log row (spec 6): success, duration, masked request and
 * response summaries. The row is written on its own connection, so it survives a rollback of the caller;
 * a failure to write it is logged and never fails the call; the adapter's exception reaches the caller
 * unchanged.
 */
export async function loggedCall<T>(
  deps: CallLogDeps,
  call: CallDescription,
  run: () => Promise<T>,
  responseSummary: (result: T) => string,
): Promise<T> {
  const calledAt = new Date();
  const started = performance.now();
  const write = async (success: boolean, response: string | null, error: string | null) => {
    try {
      await deps.db
        .insertInto('external_call_log')
        .values({
          call_type: call.callType,
          adapter_name: call.adapterName,
          method_name: call.methodName,
          success,
          duration_ms: Math.max(0, Math.round(performance.now() - started)),
          target_ref: call.targetRef?.slice(0, 100) ?? null,
          request_summary: call.requestSummary,
          response_summary: response,
          error_message: error?.slice(0, 1000) ?? null,
          called_at: calledAt,
        })
        .execute();
    } catch (err) {
      deps.logger.warn({ err, adapter: call.adapterName, method: call.methodName }, 'external_call_log row could not be written');
    }
  };
  let result: T;
  try {
    result = await run();
  } catch (err) {
    await write(false, null, err instanceof Error ? `${err.name}: ${err.message}` : String(err));
    throw err;
  }
  let response: string | null;
  try {
    response = responseSummary(result);
  } catch {
    response = null;
  }
  await write(true, response, null);
  return result;
}
