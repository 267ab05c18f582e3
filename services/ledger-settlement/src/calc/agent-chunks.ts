import type { StepContext } from '@csp/batch';
import { sql } from 'kysely';

export const AGENT_CHUNK_SIZE = 2_000;

/** min/max agent_id (every ledger, override and settle row references an agent). */
export async function agentIdBounds(ctx: StepContext): Promise<{ min: number; max: number } | undefined> {
  const { rows } = await sql<{ min: number | null; max: number | null }>`
    SELECT min(agent_id) AS min, max(agent_id) AS max FROM agent`.execute(ctx.db);
  const row = rows[0];
  if (!row || row.min === null || row.max === null) return undefined;
  return { min: Number(row.min), max: Number(row.max) };
}
