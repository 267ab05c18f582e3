/**
 * What-if simulations (`/api/simulations`, docs/simulation-api.md). The routes are not in the committed
 * OpenAPI snapshot yet (the backend was built alongside this page), so their shapes are typed here from
 * the contract and the calls go through the untyped client; once the snapshot has them these types
 * become aliases of `paths[...]`.
 */
import { dynamicApi, downloadFile } from '../../api/client.js';
import { unwrap, type PageResponse } from '../../api/envelope.js';

export const SIMULATIONS = '/api/simulations';

export type ScopeType = 'ALL' | 'ORG' | 'AGENTS';
export type SimulationStatus = 'DRAFT' | 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED' | 'ADOPTION_PENDING' | 'ADOPTED';
export type ChangeAction = 'ADD' | 'REPLACE' | 'END';
export type Direction = 'up' | 'down' | 'same';

export interface SimulationRow {
  id: number;
  name: string;
  baseMonth: string;
  scopeType: ScopeType;
  scopeOrgId: number | null;
  scopeOrgName: string | null;
  scopeAgentIds: number[];
  status: SimulationStatus;
  statusName: string | null;
  processed: number;
  total: number;
  etaSeconds: number | null;
  errorMessage: string | null;
  createdBy: number | null;
  createdByName: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  changeCount: number;
  approvalId?: number | null;
}

export interface SimulationChange {
  changeId: number;
  seq: number;
  ruleTable: string;
  action: ChangeAction;
  targetId: number | null;
  values: Record<string, unknown> | null;
  endDate: string | null;
  label: string;
}

export type SimulationDetail = SimulationRow & { changes: SimulationChange[] };

export interface ChangeInput {
  ruleTable: string;
  action: ChangeAction;
  targetId?: number;
  values?: Record<string, unknown>;
  endDate?: string;
}

export interface SimulationInput {
  name: string;
  baseMonth: string;
  scopeType: ScopeType;
  scopeOrgId?: number;
  scopeAgentIds?: number[];
  changes: ChangeInput[];
}

export interface RuleTable {
  ruleTable: string;
  resource: string;
  path: string;
  label: string;
  idField: string;
}

export interface AgentResult {
  agentId: number;
  agentCode: string | null;
  agentName: string | null;
  orgId: number | null;
  orgName: string | null;
  grossBefore: string;
  grossAfter: string;
  grossDiff: string;
  grossDiffPct: string | null;
  netBefore: string;
  netAfter: string;
  netDiff: string;
}

export interface Totals {
  grossBefore: string;
  grossAfter: string;
  grossDiff: string;
  netBefore: string;
  netAfter: string;
  netDiff: string;
  agentsUp: number;
  agentsDown: number;
  agentsSame: number;
  agentCount: number;
}

export interface Bucket {
  from: string;
  to: string;
  count: number;
}

export interface ChangeMoved {
  changeId: number;
  ruleTable: string;
  action: ChangeAction;
  label: string;
  amountMoved: string | null;
}

export interface Summary {
  totals: Totals;
  histogram: Bucket[];
  topGainers: AgentResult[];
  topLosers: AgentResult[];
  changes: ChangeMoved[];
}

export interface OrgResult {
  orgId: number;
  parentId: number | null;
  orgName: string;
  orgLevel: number | null;
  grossBefore: string;
  grossAfter: string;
  grossDiff: string;
  netBefore: string;
  netAfter: string;
  netDiff: string;
  agentCount: number;
}

/** The explain of one agent's month (the shape of `GET /api/settle/{id}/explain`, ids aside). */
export interface Explain {
  agentId?: number;
  agentName?: string | null;
  settleMonth?: string;
  status?: string;
  sections: Record<string, ReadonlyArray<Record<string, unknown>> | undefined>;
  totals: Record<string, string | null | undefined>;
}

export interface SideBySide {
  real: Explain | null;
  simulated: Explain | null;
}

export interface CompareItem {
  agentId: number;
  agentName: string | null;
  grossA: string;
  grossB: string;
  diff: string;
}

export interface Compare {
  items: CompareItem[];
  totals: { grossA: string; grossB: string; diff: string };
}

type Query = Record<string, string | number>;

const get = async <T>(path: string, query?: Query): Promise<T> =>
  unwrap<T>(await dynamicApi.GET(path, query ? { params: { query } } : {}));

/**
 * Both lists answer the kit's page (`{ list, total, pageNum, pageSize, pages }`, read as every other list is):
 * the simulations are the kit's resource list (`pageNum`, `pageSize`, `sortField`, `sortOrder`, filters by
 * field name), an agent's results take `pageNum`, `pageSize` and `sort`.
 */
export const listSimulations = (query: Query) => get<PageResponse<SimulationRow>>(SIMULATIONS, query);
export const listAgentResults = (id: number, query: Query) => get<PageResponse<AgentResult>>(`${SIMULATIONS}/${id}/agents`, query);

export async function getSimulation(id: number): Promise<SimulationDetail> {
  const detail = await get<SimulationRow & { changes?: SimulationChange[] }>(`${SIMULATIONS}/${id}`);
  return { ...detail, scopeAgentIds: detail.scopeAgentIds ?? [], changes: detail.changes ?? [] };
}
export const ruleTables = () => get<RuleTable[]>(`${SIMULATIONS}/rule-tables`);
export const getSummary = (id: number) => get<Summary>(`${SIMULATIONS}/${id}/summary`);
export const orgResults = (id: number) => get<OrgResult[]>(`${SIMULATIONS}/${id}/orgs`);
export const agentExplain = (id: number, agentId: number) => get<SideBySide>(`${SIMULATIONS}/${id}/agents/${agentId}/explain`);
export const compareSimulations = (a: number, b: number) => get<Compare>(`${SIMULATIONS}/compare`, { a, b });

export async function createSimulation(body: SimulationInput): Promise<number> {
  return unwrap<{ id: number }>(await dynamicApi.POST(SIMULATIONS, { body })).id;
}

export async function updateSimulation(id: number, body: SimulationInput): Promise<void> {
  unwrap(await dynamicApi.PUT(`${SIMULATIONS}/${id}`, { body }));
}

export async function deleteSimulation(id: number): Promise<void> {
  unwrap(await dynamicApi.DELETE(`${SIMULATIONS}/${id}`, {}));
}

export async function runSimulation(id: number): Promise<void> {
  unwrap(await dynamicApi.POST(`${SIMULATIONS}/${id}/run`, {}));
}

export async function adoptSimulation(id: number, effectiveFrom: string): Promise<number> {
  return unwrap<{ approvalId: number }>(await dynamicApi.POST(`${SIMULATIONS}/${id}/adopt`, { body: { effectiveFrom } })).approvalId;
}

export function exportSimulation(id: number): Promise<void> {
  return downloadFile(`${SIMULATIONS}/${id}/export`, `simulation-${id}.xlsx`);
}
