import { describe, expect, it } from 'vitest';
import type { FieldMeta, ResourceMeta } from './meta.js';
import { fromKey, knownOption, lookupQuery, mergeOptions, optionOf, refTargetOf, rowLookup, toKeys, treeOptions, treeTitle } from './ref-options.js';

const field = (key: string, kind: string, extra: Partial<FieldMeta> = {}): FieldMeta => ({
  key,
  kind,
  sort: false,
  search: false,
  save: false,
  required: false,
  readOnly: false,
  ...extra,
});

const grant = { menu: 'ORG_AGENT', perm: 'READ' as const };
const agentMeta: ResourceMeta = {
  name: 'Agent',
  path: '/api/agents',
  menu: 'ORG_AGENT',
  idParam: 'id',
  idField: 'agentId',
  searchTypes: ['agentName', 'phone', 'licenseNo'],
  permissions: { list: grant, detail: grant, create: null, update: null, delete: null, export: null },
  fields: [
    field('agentId', 'id'),
    field('agentName', 'text', { search: true }),
    field('phone', 'phone', { search: true, masked: 'phone' }),
    field('licenseNo', 'text', { search: true, filter: 'eq' }),
  ],
};
const companyMeta: ResourceMeta = {
  ...agentMeta,
  name: 'Company',
  path: '/api/companies',
  idField: 'companyId',
  searchTypes: ['companyCode', 'companyName'],
  fields: [field('companyId', 'id'), field('companyCode', 'code', { search: true }), field('companyName', 'text', { search: true })],
};
const orgMeta: ResourceMeta & { listPath: string } = { ...agentMeta, name: 'Organization', path: '/api/orgs', listPath: '/api/orgs/list', idField: 'orgId', fields: [field('orgId', 'id')] };
const resources = [agentMeta, companyMeta, orgMeta];

const agentRef = { resource: 'Agent', valueField: 'agentId', labelField: 'agentName', displayField: 'agentName', picker: 'search' as const };

describe('reference pickers map rows to options and back', () => {
  it('finds the target, its list path, an unmasked secondary field and how its value travels', () => {
    const agent = refTargetOf(agentRef, resources, { kind: 'ref' })!;
    expect(agent).toMatchObject({ listPath: '/api/agents', valueField: 'agentId', labelField: 'agentName', secondaryField: 'licenseNo', numeric: true, byId: true, picker: 'search' });
    const org = refTargetOf({ resource: 'Organization', valueField: 'orgId', labelField: 'orgName', picker: 'tree' }, resources, { kind: 'ref' })!;
    expect(org).toMatchObject({ listPath: '/api/orgs/list', picker: 'tree', byId: true });
    // a code reference (companyCode -> Company): text on the wire, looked up by a search on the code
    const company = refTargetOf({ resource: 'Company', valueField: 'companyCode', labelField: 'companyName', picker: 'select' }, resources, { kind: 'code' })!;
    expect(company).toMatchObject({ numeric: false, byId: false, secondaryField: undefined });
    expect(lookupQuery(company, 'SAMSUNG')).toEqual({ searchType: 'companyCode', searchKeyword: 'SAMSUNG', pageSize: '20' });
  });

  it('looks a value up in the list, not by a detail call, when the target has no detail route (grades)', () => {
    const gradeMeta: ResourceMeta = {
      ...agentMeta,
      name: 'Grade',
      path: '/api/grades',
      idField: 'gradeId',
      permissions: { ...agentMeta.permissions, detail: null },
      fields: [field('gradeId', 'id'), field('gradeName', 'text', { search: true })],
    };
    const grade = refTargetOf({ resource: 'Grade', valueField: 'gradeId', labelField: 'gradeName', picker: 'select' }, [gradeMeta], { kind: 'ref' })!;
    expect(grade).toMatchObject({ byId: true, numeric: true, picker: 'select' });
    expect(rowLookup(grade, '5')).toEqual({ query: { pageSize: 1000 } });
    // a searched target without a detail permission in the metadata still asks its detail route (users)
    const userMeta: ResourceMeta = { ...agentMeta, name: 'User', path: '/api/users', idField: 'userId', permissions: { ...agentMeta.permissions, detail: null }, fields: [field('userId', 'id')] };
    const user = refTargetOf({ resource: 'User', valueField: 'userId', labelField: 'userName', picker: 'search' }, [userMeta], { kind: 'ref' })!;
    expect(rowLookup(user, '1')).toEqual({ detail: '/api/users/1' });
    expect(rowLookup(refTargetOf(agentRef, resources, { kind: 'ref' })!, '6')).toEqual({ detail: '/api/agents/6' });
  });

  it('has no picker for a target the user may not read (the metadata leaves it out)', () => {
    expect(refTargetOf({ resource: 'User', valueField: 'userId', labelField: 'userName', picker: 'search' }, resources)).toBeUndefined();
    expect(refTargetOf(null, resources)).toBeUndefined();
  });

  it('labels a row with its name and license number; a row without a name with its value', () => {
    const agent = refTargetOf(agentRef, resources, { kind: 'ref' })!;
    expect(optionOf({ agentId: 6, agentName: '김민수', licenseNo: 'LIC00000006' }, agent)).toEqual({ value: '6', label: '김민수', secondary: 'LIC00000006' });
    expect(optionOf({ agentId: 7, agentName: null, licenseNo: null }, agent)).toEqual({ value: '7', label: '7' });
    expect(optionOf({ agentName: '값 없음' }, agent)).toBeUndefined();
  });

  it('keys values as text and gives the form an id as a number and a code as text', () => {
    expect(toKeys(6)).toEqual(['6']);
    expect(toKeys('6')).toEqual(['6']);
    expect(toKeys(['6', 7])).toEqual(['6', '7']);
    expect(toKeys(null)).toEqual([]);
    expect(toKeys('')).toEqual([]);
    expect(fromKey('6', true)).toBe(6);
    expect(fromKey('004', false)).toBe('004');
    expect(fromKey('A-1', true)).toBe('A-1');
  });

  it('keeps the edited record\'s name for its own value only', () => {
    const row = { agentId: 6, agentName: '김민수' };
    expect(knownOption({ key: 'agentId', ref: agentRef }, row)).toEqual({ value: '6', label: '김민수' });
    expect(knownOption({ key: 'agentId', ref: agentRef }, { agentId: 6, agentName: null })).toBeUndefined();
    expect(knownOption({ key: 'agentId', ref: { ...agentRef, displayField: null } }, row)).toBeUndefined();
  });

  it('puts the current value first, named by the search when its own row is not in yet, without duplicates', () => {
    const found = [
      { value: '8', label: '박지훈', secondary: 'LIC00000008' },
      { value: '6', label: '김민수', secondary: 'LIC00000006' },
    ];
    expect(mergeOptions([{ value: '6', label: '6' }], found)).toEqual([found[1], found[0]]);
    expect(mergeOptions([{ value: '3', label: '이영희' }, undefined], found)).toEqual([{ value: '3', label: '이영희' }, ...found]);
  });

  it('turns the organization tree into tree options and finds a title at any depth', () => {
    const tree = treeOptions([
      { orgId: 1, orgName: '본사', children: [{ orgId: 2, orgName: '강남지점', children: [{ orgId: 5, orgName: '강남1팀', children: [] }] }] },
    ]);
    expect(tree).toEqual([
      { value: '1', title: '본사', children: [{ value: '2', title: '강남지점', children: [{ value: '5', title: '강남1팀', children: [] }] }] },
    ]);
    expect(treeTitle(tree, '5')).toBe('강남1팀');
    expect(treeTitle(tree, '9')).toBeUndefined();
  });
});
