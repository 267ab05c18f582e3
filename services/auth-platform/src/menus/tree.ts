interface TreeItem {
  menuId: number;
  parentMenuId: number | null;
  sortOrder: number;
}

function childrenByParent<T extends TreeItem>(menus: T[]): Map<number | null, T[]> {
  const ids = new Set(menus.map((m) => m.menuId));
  const children = new Map<number | null, T[]>();
  for (const m of menus) {
    // A menu whose parent is not in the set is shown at the top level rather than lost.
    const parent = m.parentMenuId !== null && ids.has(m.parentMenuId) ? m.parentMenuId : null;
    const list = children.get(parent) ?? [];
    list.push(m);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.sortOrder - b.sortOrder || a.menuId - b.menuId);
  return children;
}

/** Parents before children, siblings by sort order: the order a matrix grid shows them in. */
export function treeOrder<T extends TreeItem>(menus: T[]): T[] {
  const children = childrenByParent(menus);
  const out: T[] = [];
  const seen = new Set<number>();
  const visit = (parent: number | null) => {
    for (const m of children.get(parent) ?? []) {
      if (seen.has(m.menuId)) continue;
      seen.add(m.menuId);
      out.push(m);
      visit(m.menuId);
    }
  };
  visit(null);
  return out;
}

export type TreeNode<T> = T & { children: TreeNode<T>[] };

/**
 * Nests flat menus. `keep` decides for leaves; a node with kept descendants is always kept, so a
 * directory appears exactly when something below it does.
 */
export function buildTree<T extends TreeItem>(menus: T[], keep: (menu: T) => boolean = () => true): TreeNode<T>[] {
  const children = childrenByParent(menus);
  const seen = new Set<number>();
  const build = (parent: number | null): TreeNode<T>[] => {
    const nodes: TreeNode<T>[] = [];
    for (const m of children.get(parent) ?? []) {
      if (seen.has(m.menuId)) continue;
      seen.add(m.menuId);
      const kids = build(m.menuId);
      if (kids.length > 0 || keep(m)) nodes.push({ ...m, children: kids });
    }
    return nodes;
  };
  return build(null);
}
