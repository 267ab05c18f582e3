import { rangeChunks, type Chunk, type StepContext } from '@csp/batch';
import { sql } from 'kysely';
import { chunkSizes } from './chunk-sizes.js';

/** agent_id ranges over min..max agent_id (every ledger, override and settle row references an agent). */
export async function planAgentChunks(ctx: StepContext): Promise<Chunk[]> {
  const { rows } = await sql<{ min: number | null; max: number | null }>`
    SELECT min(agent_id) AS min, max(agent_id) AS max FROM agent`.execute(ctx.db);
  const row = rows[0];
  if (!row || row.min === null || row.max === null) return [];
  return rangeChunks(Number(row.min), Number(row.max), chunkSizes().agents);
}
