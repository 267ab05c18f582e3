import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { AuthUser } from './auth.js';

/**
 * Row-level rule: a user whose only role is AGENT sees only rows of their own agent (users.agent_id);
 * without a linked agent, nothing. Any other role (alone or besides AGENT) sees every row.
 */
export function ownAgentOnly(user: AuthUser | undefined): { agentId: number | null } | undefined {
  if (!user) return undefined;
  const onlyAgent = user.roleCodes.length > 0 && user.roleCodes.every((r) => r === 'AGENT');
  return onlyAgent ? { agentId: user.agentId } : undefined;
}

/** Applies ownAgentOnly to a query: the row is visible when any of `columns` holds the user's agent. */
export function restrictToOwnAgent<QB extends SelectQueryBuilder<any, any, any>>(
  qb: QB,
  user: AuthUser | undefined,
  columns: ReadonlyArray<string | RawBuilder<unknown>> | undefined,
): QB {
  const scope = ownAgentOnly(user);
  if (!scope || !columns || columns.length === 0) return qb;
  if (scope.agentId === null) return qb.where(sql<SqlBool>`false`) as QB;
  const agentId = scope.agentId;
  const refs = columns.map((c) => (typeof c === 'string' ? sql.ref(c) : c));
  return qb.where((eb) => eb.or(refs.map((c) => sql<SqlBool>`${c} = ${agentId}` as Expression<SqlBool>))) as QB;
}

/** Whether the AGENT scope narrows this user's rows. */
restrictToOwnAgent.applies = (user: AuthUser | undefined): boolean => ownAgentOnly(user) !== undefined;
