import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { api } from '../api/client.js';
import type { components } from '../api/schema';
import { unwrap } from '../api/envelope.js';
import { readWarm, writeWarm } from '../api/warm-cache.js';
import { useAuth } from '../auth/auth.js';

/** The menu tree node of `/api/menus/my`, as the OpenAPI document names it (a recursive component). */
export type MenuNode = components['schemas']['MyMenuNode'];
export type PermCode = MenuNode['permissions'][number];

/** A page the user may open, with its directory chain (for breadcrumbs). */
export interface PageMenu {
  node: MenuNode;
  path: string;
  parents: MenuNode[];
}

export interface MyMenus {
  tree: MenuNode[];
  pages: PageMenu[];
  byCode: Map<string, PageMenu>;
  /** The page of a location: the longest menu path that the pathname starts with. */
  pageOf(pathname: string): PageMenu | undefined;
  can(menuCode: string, perm: PermCode): boolean;
}

function build(tree: MenuNode[]): MyMenus {
  const pages: PageMenu[] = [];
  const walk = (nodes: MenuNode[], parents: MenuNode[]) => {
    for (const node of nodes) {
      if (node.menuPath && node.menuType !== 'DIRECTORY' && node.permissions.includes('READ')) {
        pages.push({ node, path: node.menuPath.replace(/^\/+|\/+$/g, ''), parents });
      }
      walk(node.children ?? [], [...parents, node]);
    }
  };
  walk(tree, []);
  const byCode = new Map(pages.map((p) => [p.node.menuCode, p]));
  const longestFirst = [...pages].sort((a, b) => b.path.length - a.path.length);
  return {
    tree,
    pages,
    byCode,
    pageOf(pathname) {
      const path = pathname.replace(/^\/+|\/+$/g, '');
      return longestFirst.find((p) => path === p.path || path.startsWith(`${p.path}/`));
    },
    can(menuCode, perm) {
      return byCode.get(menuCode)?.node.permissions.includes(perm) ?? false;
    },
  };
}

/** `/api/menus/my` of a signed-in user: the query of `useMyMenus`, also fetched by main.tsx before the first render. */
export const myMenusQuery = queryOptions({
  queryKey: ['menus', 'my'],
  staleTime: 5 * 60_000,
  queryFn: async () => {
    const tree = unwrap<MenuNode[]>(await api.GET('/api/menus/my'));
    writeWarm('menus', tree);
    return tree;
  },
  // The last menu of this user (none when signed out) draws the shell at once; the call above still runs and wins.
  initialData: () => readWarm<MenuNode[]>('menus'),
  initialDataUpdatedAt: 0,
});

/** `/api/menus/my`: the menu tree of the user with the permission codes granted per node. */
export function useMyMenus() {
  const { signedIn } = useAuth();
  const query = useQuery({ ...myMenusQuery, enabled: signedIn });
  const menus = useMemo(() => (query.data ? build(query.data) : undefined), [query.data]);
  return { menus, isLoading: query.isLoading, error: query.error };
}

/** The page menu of the current location (undefined while loading or when the user has none). */
export function useCurrentPage(): PageMenu | undefined {
  const { menus } = useMyMenus();
  const location = useLocation();
  return menus?.pageOf(location.pathname);
}

/** `can(perm)` for one menu: buttons show only what the user's roles grant. */
export function useGrant(menuCode: string | undefined) {
  const { menus } = useMyMenus();
  return (perm: PermCode) => (menuCode ? (menus?.can(menuCode, perm) ?? false) : false);
}
