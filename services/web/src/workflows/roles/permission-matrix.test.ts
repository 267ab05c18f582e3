import { describe, expect, it } from 'vitest';
import { changedPairs, grantedPairs, grantsBody, pairKey, toggleColumn, toggleRow, type MatrixMenu } from './permission-matrix.js';

const menu = (menuId: number, codes: string, granted: string): MatrixMenu => ({
  menuId,
  menuCode: `M${menuId}`,
  menuName: `Menu ${menuId}`,
  menuType: 'MENU',
  menuLevel: 2,
  isActive: true,
  permissions: codes.split(' ').filter(Boolean).map((c) => ({ permCode: c as never, permName: c, granted: granted.split(' ').includes(c) })),
});

describe('permission matrix edits', () => {
  const menus = [menu(1, 'READ CREATE', 'READ'), menu(2, 'READ UPDATE DELETE', ''), menu(3, '', '')];

  it('starts from the granted pairs and reports exactly the pairs whose state changed', () => {
    const base = grantedPairs(menus);
    expect([...base]).toEqual(['1:READ']);
    const next = new Set(base);
    next.delete('1:READ');
    next.add('2:UPDATE');
    expect(changedPairs(base, next)).toEqual(['1:READ', '2:UPDATE']);
    expect(changedPairs(base, new Set(base))).toEqual([]);
  });

  it('toggles a row on (some on) and off (all on), and a column over the menus that offer the code', () => {
    const on = toggleRow(new Set(['1:READ']), menus[0]!);
    expect([...on].sort()).toEqual(['1:CREATE', '1:READ']);
    expect([...toggleRow(on, menus[0]!)]).toEqual([]);
    const read = toggleColumn(new Set(['1:READ']), menus, 'READ');
    expect([...read].sort()).toEqual(['1:READ', '2:READ']);
    expect([...toggleColumn(read, menus, 'READ')]).toEqual([]);
    expect([...toggleColumn(new Set(), menus, 'EXECUTE')]).toEqual([]);
  });

  it('saves every pair the menus offer, marked granted or not', () => {
    expect(grantsBody(menus, new Set([pairKey(2, 'DELETE')]))).toEqual({
      grants: [
        { menuId: 1, permCode: 'READ', granted: false },
        { menuId: 1, permCode: 'CREATE', granted: false },
        { menuId: 2, permCode: 'READ', granted: false },
        { menuId: 2, permCode: 'UPDATE', granted: false },
        { menuId: 2, permCode: 'DELETE', granted: true },
      ],
    });
  });
});
