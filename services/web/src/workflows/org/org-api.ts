import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { unwrap, type PageResponse } from '../../api/envelope.js';
import type { components, paths } from '../../api/schema';

export type OrgNode = components['schemas']['OrgTreeNode'];
export type AgentHistory = paths['/api/agents/{id}/history']['get']['responses'][200]['content']['application/json']['data'][number];
export type MoveBody = NonNullable<paths['/api/agents/{id}/move']['post']['requestBody']>['content']['application/json'];
export type RetireBody = NonNullable<paths['/api/agents/{id}/retire']['post']['requestBody']>['content']['application/json'];
export type AgentRow = paths['/api/agents']['get']['responses'][200]['content']['application/json']['data']['list'][number];

export interface Grade {
  gradeId: number;
  gradeCode: string;
  gradeName: string;
  gradeLevel: number;
  isActive: boolean;
}

/** `GET /api/orgs`: the nested organization tree (agentCount = ACTIVE agents directly in a node). */
export function useOrgTree(activeOnly = false) {
  return useQuery({
    queryKey: ['orgs', 'tree', activeOnly],
    queryFn: async () => unwrap<OrgNode[]>(await api.GET('/api/orgs', { params: { query: activeOnly ? { activeOnly: 'true' } : {} } })),
  });
}

export function useGrades() {
  return useQuery({
    queryKey: ['grades', 'all'],
    staleTime: 5 * 60_000,
    queryFn: async () =>
      unwrap<PageResponse<Grade>>(await api.GET('/api/grades', { params: { query: { pageSize: 100, sortField: 'gradeLevel', sortOrder: 'ASC' } as never } })).list,
  });
}

/** Active agents of a node and everything below it. */
export function subtreeCount(node: OrgNode): number {
  return node.agentCount + node.children.reduce((sum, child) => sum + subtreeCount(child), 0);
}

export function findOrg(nodes: OrgNode[], orgId: number): OrgNode | undefined {
  for (const node of nodes) {
    if (node.orgId === orgId) return node;
    const found = findOrg(node.children, orgId);
    if (found) return found;
  }
  return undefined;
}

/** The chain of organizations from the root down to `orgId` (for the tree's expanded keys). */
export function pathTo(nodes: OrgNode[], orgId: number): OrgNode[] {
  for (const node of nodes) {
    if (node.orgId === orgId) return [node];
    const below = pathTo(node.children, orgId);
    if (below.length) return [node, ...below];
  }
  return [];
}

/** Today as yyyy-MM-dd in the browser's time zone (the default date of moves and retirements). */
export function todayText(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
