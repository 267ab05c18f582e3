/**
 * The permission matrix of a role without React: menus (in tree order) x permission codes, the
 * cells a menu offers, edits kept as a set of granted pairs, and the body of the save.
 */

export const PERM_COLUMNS = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'APPROVE', 'EXPORT', 'PRINT', 'EXECUTE'] as const;
export type PermCode = (typeof PERM_COLUMNS)[number];

export interface MatrixMenu {
  menuId: number;
  menuCode: string;
  menuName: string;
  menuType: string;
  menuLevel: number;
  isActive: boolean;
  permissions: { permCode: PermCode; permName: string; granted: boolean }[];
}

export const pairKey = (menuId: number, perm: string) => `${menuId}:${perm}`;

/** The pairs the server says are granted. */
export function grantedPairs(menus: readonly MatrixMenu[]): Set<string> {
  return new Set(menus.flatMap((m) => m.permissions.filter((p) => p.granted).map((p) => pairKey(m.menuId, p.permCode))));
}

/** Pairs whose state differs between two sets (what a save would change). */
export function changedPairs(before: ReadonlySet<string>, after: ReadonlySet<string>): string[] {
  return [...new Set([...before, ...after])].filter((k) => before.has(k) !== after.has(k)).sort();
}

/** One menu's codes all on, or (when all are on already) all off. */
export function toggleRow(granted: ReadonlySet<string>, menu: MatrixMenu): Set<string> {
  const next = new Set(granted);
  const keys = menu.permissions.map((p) => pairKey(menu.menuId, p.permCode));
  const allOn = keys.every((k) => next.has(k));
  for (const k of keys) if (allOn) next.delete(k); else next.add(k);
  return next;
}

/** One code on every menu that offers it, or off everywhere when it is on everywhere already. */
export function toggleColumn(granted: ReadonlySet<string>, menus: readonly MatrixMenu[], perm: PermCode): Set<string> {
  const next = new Set(granted);
  const keys = menus.filter((m) => m.permissions.some((p) => p.permCode === perm)).map((m) => pairKey(m.menuId, perm));
  const allOn = keys.length > 0 && keys.every((k) => next.has(k));
  for (const k of keys) if (allOn) next.delete(k); else next.add(k);
  return next;
}

/** PUT /api/roles/{id}/permissions: every pair the menus offer, marked granted or not. */
export function grantsBody(menus: readonly MatrixMenu[], granted: ReadonlySet<string>): { grants: { menuId: number; permCode: PermCode; granted: boolean }[] } {
  return {
    grants: menus.flatMap((m) => m.permissions.map((p) => ({ menuId: m.menuId, permCode: p.permCode, granted: granted.has(pairKey(m.menuId, p.permCode)) }))),
  };
}
