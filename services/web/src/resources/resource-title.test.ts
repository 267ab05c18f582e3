import { describe, expect, it } from 'vitest';
import type { ResourceMeta } from './meta.js';
import { resourceTitle, resourceTitles } from './resource-title.js';

const resource = (name: string, path: string) => ({ name, path, menu: 'X', idParam: 'id', permissions: {}, fields: [] }) as unknown as ResourceMeta;

describe('tab labels of a page with several resources', () => {
  it('takes a resource title from the catalog in the UI language, none for a resource it does not know', () => {
    expect(resourceTitle(resource('ParseError', '/api/receive/errors'), 'ko')).toBe('파싱 오류');
    expect(resourceTitle(resource('ParseError', '/api/receive/errors'), 'en')).toBe('Parse errors');
    expect(resourceTitle(resource('login log', '/api/system/logs/login'), 'ko')).toBe('로그인 로그');
    expect(resourceTitle(resource('NoSuchThing', '/api/no-such-things'), 'ko')).toBeUndefined();
  });

  it('gives the menu name to the resource the page is named after and the catalog title to the others', () => {
    const agents = resource('Agent', '/api/agents');
    const grades = resource('Grade', '/api/grades');
    const titles = resourceTitles([grades, agents], 'org/agents', 'Agents', 'en');
    expect(titles.get(agents)).toBe('Agents');
    expect(titles.get(grades)).toBe('Grades');
    expect(resourceTitles([grades, agents], 'org/agents', '설계사', 'ko').get(grades)).toBe('직급');
  });

  it('names the receive page tabs in Korean on a Korean page', () => {
    const rs = [
      resource('RawCommissionData', '/api/receive/data'),
      resource('ParseError', '/api/receive/errors'),
      resource('ReceivedFile', '/api/receive/files'),
      resource('Reconciliation', '/api/recon'),
    ];
    expect([...resourceTitles(rs, 'receive/data', '수신 데이터', 'ko').values()]).toEqual(['수신 데이터', '파싱 오류', '수신 파일', '대사 결과']);
    expect([...resourceTitles(rs, 'receive/data', 'Received Data', 'en').values()]).toEqual(['Received Data', 'Parse errors', 'Received files', 'Reconciliations']);
  });

  it('prefers the exact path over a longer form of the last word (rules/chargeback has /api/chargebacks too)', () => {
    const rules = resource('ChargebackRule', '/api/rules/chargeback');
    const chargebacks = resource('Chargeback', '/api/chargebacks');
    const titles = resourceTitles([rules, chargebacks], 'rules/chargeback', 'Chargeback Rules', 'en');
    expect([titles.get(rules), titles.get(chargebacks)]).toEqual(['Chargeback Rules', 'Chargebacks']);
  });

  it('matches `kpi/org` to /api/kpi/organization and ignores path parameters', () => {
    const kpi = resource('KpiOrganization', '/api/kpi/organization');
    const forecast = resource('ForecastKpi', '/api/forecast-kpi');
    expect(resourceTitles([kpi, forecast], 'kpi/org', 'Organization KPI', 'en').get(kpi)).toBe('Organization KPI');
    const fields = resource('FieldMapping', '/api/mapping/:companyCode/fields');
    const profiles = resource('CompanyProfile', '/api/mapping/profiles');
    const titles = resourceTitles([profiles, fields], 'receive/mapping', 'Field & Code Mapping', 'en');
    expect([titles.get(profiles), titles.get(fields)]).toEqual(['Company profiles', 'Field mappings']);
  });

  it('names no tab after the menu when two resources match equally, and a lone resource always after it', () => {
    const a = resource('login log', '/api/system/logs/login');
    const b = resource('api access log', '/api/system/logs/api');
    const titles = resourceTitles([a, b], 'system/logs', 'Logs', 'en');
    expect([titles.get(a), titles.get(b)]).toEqual(['Login logs', 'API access logs']);
    const only = resource('external call', '/api/external-call-logs');
    expect(resourceTitles([only], 'system/external-call-log', 'External Call Log', 'en').get(only)).toBe('External Call Log');
  });

  it('never shows an English resource name on a Korean page: a resource the catalog lacks takes the menu name and its place', () => {
    const known = resource('Agent', '/api/agents');
    const unknown = resource('BrandNewThing', '/api/brand-new-things');
    expect(resourceTitles([known, unknown], 'org/agents', '설계사', 'ko').get(unknown)).toBe('설계사 2');
  });
});
