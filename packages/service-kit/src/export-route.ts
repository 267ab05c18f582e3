import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { streamBatches } from './cursor.js';
import { readTarget } from './read-db.js';
import { sendSpreadsheet } from './spreadsheet.js';
import { todayCompact } from './text.js';
import type { AnyRow, Resource } from './resource-types.js';

/**
 * Rows per cursor read of an export (one await and one array per read). 500, not 2,000: fewer rows
 * alive across a young-generation GC, so fewer are copied and promoted (less GC CPU, lower peak RSS).
 */
const EXPORT_BATCH_ROWS = 500;

/**
 * GET <path>/excel of a resource: the list's filters and sort, every row streamed into an xlsx. A narrow
 * export reads pg rows as arrays (cells by position, see Resource.exportArray): at a million rows the
 * object pg builds per row (15 named properties) cost more CPU than the row's XML.
 */
export async function sendResourceExport(
  app: FastifyInstance<any, any, any, any, any>,
  resource: Resource,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const q = request.query as AnyRow;
  const read = await readTarget(app, request.user?.userId);
  const qb = resource.orderBy(resource.applyFilters(resource.exportSelect(read.db), q, request.user), q as { sortField?: string });
  const layout = { fileName: `${resource.name}-${todayCompact()}.xlsx`, sheetName: resource.name };
  const cipher = app.cipher;
  const array = resource.exportArray;
  if (array) {
    const batches = checkedWidth(streamBatches<unknown[]>(read.pool, qb.compile(), EXPORT_BATCH_ROWS, { rowMode: 'array' }), array.columns.length);
    return sendSpreadsheet(reply, { ...layout, columns: array.columns, batches: mapBatches(batches, (row) => array.row(row, cipher)) });
  }
  const batches = streamBatches<AnyRow>(read.pool, qb.compile(), EXPORT_BATCH_ROWS);
  return sendSpreadsheet(reply, { ...layout, columns: resource.exportColumns, batches: mapBatches(batches, (row) => resource.exportRow(row, cipher)) });
}

/** Cells are read by position: a select with other columns than the export's (a filter adding one) fails, never shifts cells. */
async function* checkedWidth(batches: AsyncIterable<unknown[][]>, width: number): AsyncGenerator<unknown[][]> {
  for await (const rows of batches) {
    if (rows.length > 0 && rows[0]!.length !== width) throw new Error(`export select has ${rows[0]!.length} columns, the export ${width}`);
    yield rows;
  }
}

async function* mapBatches<A, B>(batches: AsyncIterable<A[]>, map: (row: A) => B): AsyncGenerator<B[]> {
  for await (const rows of batches) yield rows.map(map);
}
