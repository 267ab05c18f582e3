import type { Db } from '@csp/db';
import { containsPattern, timestampWithin } from '../common/date-range.js';

export interface ExternalCallFilters {
  callType?: 'BANK' | 'MESSAGE' | 'OTHER' | undefined;
  success?: boolean | undefined;
  targetRef?: string | undefined;
  adapterName?: string | undefined;
  methodName?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

export const EXTERNAL_CALL_SORT = {
  callId: 'call_id',
  calledAt: 'called_at',
  callType: 'call_type',
  durationMs: 'duration_ms',
  adapterName: 'adapter_name',
} as const;

const COLUMNS = [
  'call_id',
  'call_type',
  'adapter_name',
  'method_name',
  'success',
  'duration_ms',
  'target_ref',
  'request_summary',
  'response_summary',
  'error_message',
  'called_at',
] as const;

export class ExternalCallRepository {
  constructor(private readonly db: Db) {}

  listQuery(f: ExternalCallFilters) {
    return this.db
      .selectFrom('external_call_log')
      .select(COLUMNS)
      .$if(!!f.callType, (qb) => qb.where('call_type', '=', f.callType!))
      .$if(f.success !== undefined, (qb) => qb.where('success', '=', f.success!))
      .$if(!!f.targetRef, (qb) => qb.where('target_ref', 'ilike', containsPattern(f.targetRef!)))
      .$if(!!f.adapterName, (qb) => qb.where('adapter_name', '=', f.adapterName!))
      .$if(!!f.methodName, (qb) => qb.where('method_name', '=', f.methodName!))
      .$if(!!(f.startDate || f.endDate), (qb) => qb.where((eb) => eb.and(timestampWithin('called_at', f))));
  }

  find(callId: number) {
    return this.db.selectFrom('external_call_log').select(COLUMNS).where('call_id', '=', callId).executeTakeFirst();
  }
}

export type ExternalCallRow = NonNullable<Awaited<ReturnType<ExternalCallRepository['find']>>>;
