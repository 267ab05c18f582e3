import { describe, expect, it } from 'vitest';
import type { ResourceMeta } from './meta.js';
import { humanizeName, resourceTitles } from './resource-title.js';

const resource = (name: string, path: string) => ({ name, path, menu: 'X', idParam: 'id', permissions: {}, fields: [] }) as unknown as ResourceMeta;

describe('tab labels of a page with several resources', () => {
  it('words a resource name: camel case split, plural, acronyms upper case, uncountable nouns kept', () => {
    expect(humanizeName('ParseError')).toBe('Parse errors');
    expect(humanizeName('RawCommissionData')).toBe('Raw commission data');
    expect(humanizeName('api access log')).toBe('API access logs');
    expect(humanizeName('KpiRefresh')).toBe('KPI refreshes');
    expect(humanizeName('UploadHistory')).toBe('Upload history');
    expect(humanizeName('Grade')).toBe('Grades');
    expect(humanizeName('KpiMonthly')).toBe('KPI monthly');
  });

  it('gives the menu name to the resource the page is named after and words to the others', () => {
    const agents = resource('Agent', '/api/agents');
    const grades = resource('Grade', '/api/grades');
    const titles = resourceTitles([grades, agents], 'org/agents', 'Agents');
    expect(titles.get(agents)).toBe('Agents');
    expect(titles.get(grades)).toBe('Grades');
  });

  it('prefers the exact path over a longer form of the last word (rules/chargeback has /api/chargebacks too)', () => {
    const rules = resource('ChargebackRule', '/api/rules/chargeback');
    const chargebacks = resource('Chargeback', '/api/chargebacks');
    const titles = resourceTitles([rules, chargebacks], 'rules/chargeback', 'Chargeback Rules');
    expect([titles.get(rules), titles.get(chargebacks)]).toEqual(['Chargeback Rules', 'Chargebacks']);
  });

  it('matches `kpi/org` to /api/kpi/organization and ignores path parameters', () => {
    const kpi = resource('KpiOrganization', '/api/kpi/organization');
    const forecast = resource('ForecastKpi', '/api/forecast-kpi');
    expect(resourceTitles([kpi, forecast], 'kpi/org', 'Organization KPI').get(kpi)).toBe('Organization KPI');
    const fields = resource('FieldMapping', '/api/mapping/:companyCode/fields');
    const profiles = resource('CompanyProfile', '/api/mapping/profiles');
    const titles = resourceTitles([profiles, fields], 'receive/mapping', 'Field & Code Mapping');
    expect([titles.get(profiles), titles.get(fields)]).toEqual(['Company profiles', 'Field mappings']);
  });

  it('names no tab after the menu when two resources match equally, and a lone resource always after it', () => {
    const a = resource('LoginLog', '/api/system/logs/login');
    const b = resource('ApiLog', '/api/system/logs/api');
    const titles = resourceTitles([a, b], 'system/logs', 'Logs');
    expect([titles.get(a), titles.get(b)]).toEqual(['Login logs', 'API logs']);
    const only = resource('ExternalCall', '/api/external-call-logs');
    expect(resourceTitles([only], 'system/external-call-log', 'External Call Log').get(only)).toBe('External Call Log');
  });
});
