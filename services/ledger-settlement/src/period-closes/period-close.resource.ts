import { PERIOD_CLOSE_STATUSES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

export const MENU_PERIOD_CLOSE = 'PERIOD_CLOSE';

/**
 * period_close (PERIOD_CLOSE): one row per settle month, OPEN until closed. Create makes the month's row
 * (OPEN); close and reopen are workflow actions (period-close.routes.ts).
 */
export const periodCloseResource = defineResource({
  name: 'PeriodClose',
  path: '/api/period-closes',
  table: 'period_close',
  alias: 'pc',
  menu: MENU_PERIOD_CLOSE,
  tags: ['Period close'],
  fields: {
    closeId: f.id().label('Close ID'),
    settleMonth: f.month().required().createOnly().nullable(false).sort().filter('range').label('Settle month'),
    status: f.enum(PERIOD_CLOSE_STATUSES).nullable(false).filter().sort().label('Status'),
    settleCount: f.int().nullable(false).label('Settle rows'),
    grossTotal: f.money().nullable(false).label('Gross'),
    taxTotal: f.money().nullable(false).label('Tax'),
    netTotal: f.money().nullable(false).label('Net'),
    note: f.text({ max: 1000 }).save().label('Note').export({ width: 30 }),
    closedBy: f.ref().label('Closed by'),
    closedAt: f.timestamp().sort().label('Closed at').export({ width: 24 }),
    reopenedBy: f.ref().label('Reopened by'),
    reopenedAt: f.timestamp().label('Reopened at').export({ width: 24 }),
    reopenReason: f.text().label('Reopen reason').export({ width: 30 }),
    reopenCount: f.int().nullable(false).label('Reopened'),
    version: f.version().export(false),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  statusField: 'status',
  defaultSort: '-settleMonth',
  update: false,
  delete: false,
});
