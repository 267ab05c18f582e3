import { PARSE_ERROR_TYPES, PARSE_STATUSES, RESOLVE_STATUSES } from '@csp/db';
import { RECEIVE_FILE_STATUSES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

/** parse_error_log (spec 2.5) with its raw row: GET /api/receive/errors; resolved by hand-written route. */
export const parseErrorResource = defineResource({
  name: 'ParseError',
  path: '/api/receive/errors',
  table: 'parse_error_log',
  alias: 'pe',
  menu: 'RECEIVE_DATA',
  tags: ['Intake: parse errors'],
  baseQuery: (db) =>
    db.selectFrom('parse_error_log as pe').innerJoin('raw_commission_data as r', 'r.raw_id', 'pe.raw_id'),
  fields: {
    errorId: f.id(),
    rawId: f.ref().filter().label('Raw ID'),
    companyCode: f.code({ max: 20 }).filter().sort().label('Company code'),
    settleMonth: f.month().filter().sort().label('Settle month'),
    errorType: f.enum(PARSE_ERROR_TYPES).filter('in').sort().label('Error type'),
    errorField: f.text().search().label('Field'),
    errorValue: f.text().search().label('Value'),
    errorMessage: f.text().search().label('Message'),
    resolveStatus: f.enum(RESOLVE_STATUSES).filter().sort().label('Resolve status'),
    resolvedBy: f.int().label('Resolved by'),
    resolveNote: f.text().label('Note'),
    resolvedAt: f.timestamp().label('Resolved at'),
    dataType: f.joined('r.data_type', 'text').label('Data type'),
    fileName: f.joined('r.file_name', 'text').label('File'),
    rowNumber: f.joined('r.row_number', 'int').label('Row'),
    parseStatus: f.joined('r.parse_status', 'text').label('Parse status'),
    rawContent: f.joined('r.raw_content', 'text').label('Raw content'),
    createdAt: f.createdAt(),
  },
  defaultSort: '-errorId',
  statusField: 'resolveStatus',
  dateFilter: 'createdAt',
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});

/** receive_file (V040): the carrier files received, GET /api/receive/files. */
export const receiveFileResource = defineResource({
  name: 'ReceivedFile',
  path: '/api/receive/files',
  table: 'receive_file',
  alias: 'rf',
  menu: 'RECEIVE_DATA',
  tags: ['Intake: receive'],
  fields: {
    receiveFileId: f.id(),
    companyCode: f.code({ max: 20 }).filter().sort().search().label('Company code'),
    settleMonth: f.month().filter().sort().label('Settle month'),
    dataType: f.text().filter().label('Data type'),
    fileName: f.text().search().label('File'),
    fileId: f.ref().label('Stored file'),
    contentHash: f.text().label('SHA-256'),
    fileSize: f.int().label('Bytes'),
    fileKind: f.text().label('Kind'),
    fileEncoding: f.text().label('Encoding'),
    rowCount: f.int().sort().label('Rows'),
    status: f.enum(RECEIVE_FILE_STATUSES).filter().label('Status'),
    replacedBy: f.ref().label('Replaced by'),
    receivedBy: f.int().label('Received by'),
    receivedAt: f.timestamp().sort().label('Received at'),
  },
  defaultSort: '-receiveFileId',
  dateFilter: 'receivedAt',
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});

/**
 * raw_commission_data (spec 2.5): the received records, GET /api/receive/data (the receive/data
 * screen). Millions of rows: an unfiltered list answers with the planner's estimate.
 */
export const rawDataResource = defineResource({
  name: 'RawCommissionData',
  path: '/api/receive/data',
  table: 'raw_commission_data',
  alias: 'rd',
  menu: 'RECEIVE_DATA',
  tags: ['Intake: receive'],
  fields: {
    rawId: f.id(),
    companyCode: f.code({ max: 20 }).filter().sort().label('Company code'),
    settleMonth: f.month().filter().sort().label('Settle month'),
    dataType: f.text().filter().label('Data type'),
    parseStatus: f.enum(PARSE_STATUSES).filter().label('Parse status'),
    batchId: f.text().filter().label('Batch'),
    receiveFileId: f.ref().filter().label('Received file'),
    fileName: f.text().search().label('File'),
    rowNumber: f.int().label('Row'),
    reportedAmount: f.money().label('Reported amount'),
    mappedTable: f.text().label('Ledger'),
    mappedLedgerId: f.ref().label('Ledger row'),
    rawContent: f.text().search().label('Raw content'),
    receivedAt: f.timestamp().sort().label('Received at'),
    parsedAt: f.timestamp().label('Parsed at'),
  },
  defaultSort: '-rawId',
  statusField: 'parseStatus',
  dateFilter: 'receivedAt',
  bigTable: true,
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});
