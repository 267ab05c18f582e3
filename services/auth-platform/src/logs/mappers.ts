import { isoTimestamp } from '@csp/service-kit';

type Row = Record<string, any>;

export function toLoginLogResp(r: Row) {
  return {
    logId: r.log_id as number,
    userId: r.user_id as number | null,
    loginId: r.login_id as string,
    loginType: r.login_type as string,
    result: r.result as string,
    failReason: r.fail_reason as string | null,
    ipAddress: r.ip_address as string | null,
    userAgent: r.user_agent as string | null,
    loginAt: isoTimestamp(r.login_at as Date),
  };
}

export function toApiLogResp(r: Row) {
  return {
    accessId: r.access_id as number,
    userId: r.user_id as number | null,
    requestId: r.request_id as string | null,
    serviceName: r.service_name as string | null,
    requestUri: r.request_uri as string,
    httpMethod: r.http_method as string,
    params: r.params as string | null,
    responseCode: r.response_code as number | null,
    responseTimeMs: r.response_time_ms as number | null,
    ipAddress: r.ip_address as string | null,
    createdAt: isoTimestamp(r.created_at as Date),
  };
}

export function toChangeLogResp(r: Row) {
  return {
    changeId: r.change_id as number,
    userId: r.user_id as number | null,
    menuCode: r.menu_code as string | null,
    tableName: r.table_name as string,
    recordId: r.record_id as string | null,
    beforeData: r.before_data as unknown,
    afterData: r.after_data as unknown,
    action: r.action as string,
    requestId: r.request_id as string | null,
    createdAt: isoTimestamp(r.created_at as Date),
  };
}
