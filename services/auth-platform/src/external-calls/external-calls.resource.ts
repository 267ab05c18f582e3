import { CALL_TYPES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

/** Read-only (menu SYSTEM_EXTERNAL_CALL_LOG): rows are written by the bank and message adapters, already masked. */
export const externalCallResource = defineResource({
  name: 'external call',
  path: '/api/external-call-logs',
  table: 'external_call_log',
  alias: 'ec',
  menu: 'SYSTEM_EXTERNAL_CALL_LOG',
  tags: ['external-call-logs'],
  fields: {
    callId: f.id(),
    callType: f.enum(CALL_TYPES).nullable(false).sort().filter(),
    adapterName: f.text().nullable(false).sort().filter(),
    methodName: f.text().nullable(false).filter(),
    success: f.bool().filter(),
    durationMs: f.int().nullable(false).sort(),
    targetRef: f.text({ max: 100 }).filter('like'),
    requestSummary: f.text(),
    responseSummary: f.text(),
    errorMessage: f.text(),
    calledAt: f.timestamp().nullable(false).sort(),
  },
  dateFilter: 'calledAt',
  create: false,
  update: false,
  delete: false,
  export: false,
  bigTable: true,
});
