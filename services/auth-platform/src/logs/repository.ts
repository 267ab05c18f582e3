import type { Db } from '@csp/db';
import { containsPattern, timestampWithin } from '../common/date-range.js';

interface DateRange {
  startDate?: string | undefined;
  endDate?: string | undefined;
}

export interface LoginLogFilters extends DateRange {
  loginId?: string | undefined;
  userId?: number | undefined;
  result?: 'SUCCESS' | 'FAIL' | undefined;
}

export interface ApiLogFilters extends DateRange {
  userId?: number | undefined;
  uri?: string | undefined;
  method?: string | undefined;
  responseCode?: number | undefined;
  serviceName?: string | undefined;
}

export interface ChangeLogFilters extends DateRange {
  tableName?: string | undefined;
  recordId?: string | undefined;
  action?: 'CREATE' | 'UPDATE' | 'DELETE' | 'APPROVE' | undefined;
  userId?: number | undefined;
  menuCode?: string | undefined;
}

export const LOGIN_LOG_SORT = { logId: 'log_id', loginAt: 'login_at', loginId: 'login_id', result: 'result' } as const;
export const API_LOG_SORT = {
  accessId: 'access_id',
  createdAt: 'created_at',
  requestUri: 'request_uri',
  responseCode: 'response_code',
  responseTimeMs: 'response_time_ms',
} as const;
export const CHANGE_LOG_SORT = { changeId: 'change_id', createdAt: 'created_at', tableName: 'table_name', action: 'action' } as const;

export class LogRepository {
  constructor(private readonly db: Db) {}

  loginLogs(f: LoginLogFilters) {
    return this.db
      .selectFrom('login_log')
      .select(['log_id', 'user_id', 'login_id', 'login_type', 'result', 'fail_reason', 'ip_address', 'user_agent', 'login_at'])
      .$if(!!f.loginId, (qb) => qb.where('login_id', 'ilike', containsPattern(f.loginId!)))
      .$if(f.userId !== undefined, (qb) => qb.where('user_id', '=', f.userId!))
      .$if(!!f.result, (qb) => qb.where('result', '=', f.result!))
      .$if(!!(f.startDate || f.endDate), (qb) => qb.where((eb) => eb.and(timestampWithin('login_at', f))));
  }

  apiLogs(f: ApiLogFilters) {
    return this.db
      .selectFrom('api_access_log')
      .select([
        'access_id',
        'user_id',
        'request_id',
        'service_name',
        'request_uri',
        'http_method',
        'params',
        'response_code',
        'response_time_ms',
        'ip_address',
        'created_at',
      ])
      .$if(f.userId !== undefined, (qb) => qb.where('user_id', '=', f.userId!))
      .$if(!!f.uri, (qb) => qb.where('request_uri', 'ilike', containsPattern(f.uri!)))
      .$if(!!f.method, (qb) => qb.where('http_method', '=', f.method!.toUpperCase()))
      .$if(f.responseCode !== undefined, (qb) => qb.where('response_code', '=', f.responseCode!))
      .$if(!!f.serviceName, (qb) => qb.where('service_name', '=', f.serviceName!))
      .$if(!!(f.startDate || f.endDate), (qb) => qb.where((eb) => eb.and(timestampWithin('created_at', f))));
  }

  changeLogs(f: ChangeLogFilters) {
    return this.db
      .selectFrom('data_change_log')
      .select(['change_id', 'user_id', 'menu_code', 'table_name', 'record_id', 'before_data', 'after_data', 'action', 'request_id', 'created_at'])
      .$if(!!f.tableName, (qb) => qb.where('table_name', '=', f.tableName!))
      .$if(!!f.recordId, (qb) => qb.where('record_id', '=', f.recordId!))
      .$if(!!f.action, (qb) => qb.where('action', '=', f.action!))
      .$if(f.userId !== undefined, (qb) => qb.where('user_id', '=', f.userId!))
      .$if(!!f.menuCode, (qb) => qb.where('menu_code', '=', f.menuCode!))
      .$if(!!(f.startDate || f.endDate), (qb) => qb.where((eb) => eb.and(timestampWithin('created_at', f))));
  }
}
