import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VALUE_SETS } from '@csp/db';
import { defineResource, f, type Resource } from '../src/index.js';
import { resolveLabel } from '../src/meta.js';

const ledger = defineResource({
  name: 'LabelDemo',
  path: '/api/label-demo',
  table: 'label_demo',
  menu: 'DEMO_ITEM',
  fields: {
    ledgerRowId: f.id().label('원장 행', 'Ledger row'),
    settleMonth: f.month().required(),
    agentId: f.ref().required(),
    agentName: f.joined('a.agent_name', 'text'),
    managerId: f.ref('User').shows('managerLabel'),
    managerLabel: f.joined('u.user_name', 'text').label('관리자', 'Manager'),
    orgId: f.ref(),
    runId: f.ref(),
    companyCode: f.code({ max: 20 }).save(),
    companyName: f.joined('c.company_name', 'text'),
    status: f.codes('LEDGER_STATUS').save(),
    direction: f.enum(VALUE_SETS.EXCEPTION_DIRECTION).save(),
    kind: f.enum(['A', 'B']).save().label('Kind only in English'),
    note: f.text().save().label('메모'),
    isSystem: f.enum(VALUE_SETS.YN).save(),
    payCycle: f.text().save(),
    payCycleName: f.codeName('PAY_CYCLE', 'payCycle'),
    amount: f.money().save(),
    createdAt: f.createdAt(),
  },
});

const meta = Object.fromEntries(ledger.meta.fields.map((m) => [m.key, m]));

describe('field labels, display kinds, codes and references in the metadata', () => {
  it('takes a declared pair, else the vocabulary by key, in both languages', () => {
    expect(meta.ledgerRowId!.label).toEqual({ ko: '원장 행', en: 'Ledger row' });
    expect(meta.settleMonth!.label).toEqual({ ko: '정산월', en: 'Settle month' });
    expect(meta.createdAt!.label).toEqual({ ko: '등록 일시', en: 'Created at' });
    // One Hangul argument is Korean (English from the vocabulary); one other argument is English.
    expect(meta.note!.label).toEqual({ ko: '메모', en: 'Note' });
    expect(resolveLabel('kind', ledger.declaration.fields.kind!.spec)).toEqual({ en: 'Kind only in English' });
  });

  it('names the display kind: money, month, timestamp, code with its group, ref with its target', () => {
    expect(meta.amount).toMatchObject({ kind: 'money', display: 'money' });
    expect(meta.settleMonth).toMatchObject({ kind: 'month', display: 'month' });
    expect(meta.createdAt).toMatchObject({ display: 'timestamp' });
    expect(meta.status).toMatchObject({ display: 'code', codeGroup: 'LEDGER_STATUS', enumValues: ['CALCULATED', 'CONFIRMED', 'HOLD', 'PAID'] });
    // An enum over a seeded value set is that group's code; one over no group stays an enum.
    expect(meta.direction).toMatchObject({ display: 'code', codeGroup: 'EXCEPTION_DIRECTION' });
    expect(meta.kind).toMatchObject({ display: 'enum', enumValues: ['A', 'B'] });
    expect(meta.kind!.codeGroup).toBeUndefined();
    // Y/N flags read 예/아니요 like booleans.
    expect(meta.isSystem).toMatchObject({ kind: 'enum', display: 'yn', label: { ko: '시스템 코드', en: 'System group' } });
    // A code's name field is the twin of the code, which takes its group.
    expect(meta.payCycle).toMatchObject({ display: 'code', codeGroup: 'PAY_CYCLE' });
    expect(meta.payCycleName).toMatchObject({ twinOf: 'payCycle', codeGroup: 'PAY_CYCLE' });
  });

  it('describes references: target, key, name, the joined name shown here, and the picker', () => {
    expect(meta.agentId).toMatchObject({
      display: 'ref',
      ref: { resource: 'Agent', valueField: 'agentId', labelField: 'agentName', displayField: 'agentName', picker: 'search' },
    });
    expect(meta.agentName!.twinOf).toBe('agentId');
    expect(meta.managerId!.ref).toEqual({ resource: 'User', valueField: 'userId', labelField: 'userName', displayField: 'managerLabel', picker: 'search' });
    expect(meta.orgId!.ref).toEqual({ resource: 'Organization', valueField: 'orgId', labelField: 'orgName', picker: 'tree' });
    // A key naming rows of several tables has no target unless the field names one.
    expect(meta.companyCode).toMatchObject({
      kind: 'code',
      display: 'ref',
      ref: { resource: 'Company', valueField: 'companyCode', labelField: 'companyName', displayField: 'companyName', picker: 'select' },
    });
    expect(meta.companyName!.twinOf).toBe('companyCode');
    expect(meta.runId).toMatchObject({ kind: 'ref', display: 'id' });
    expect(meta.runId!.ref).toBeUndefined();
  });
});

/** Every `*.resource.ts` of every service. */
function resourceFiles(): string[] {
  const services = resolve(import.meta.dirname, '../../../services');
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.resource.ts')) out.push(path);
    }
  };
  for (const service of readdirSync(services)) {
    const src = join(services, service, 'src');
    try {
      if (statSync(src).isDirectory()) walk(src);
    } catch {
      // a service without src
    }
  }
  return out.sort();
}

async function allResources(): Promise<Resource[]> {
  const found = new Map<string, Resource>();
  for (const file of resourceFiles()) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (value && typeof value === 'object' && 'meta' in value && 'declaration' in value) {
        const r = value as Resource;
        found.set(`${r.name}|${r.path}`, r);
      }
    }
  }
  return [...found.values()];
}

describe('every resource of every service', async () => {
  const resources = await allResources();

  it('finds the services\' resources', () => {
    expect(resources.length).toBeGreaterThanOrEqual(90);
  });

  it('labels every field in Korean and English (declared or from the vocabulary, never the key)', () => {
    const missing: string[] = [];
    let fields = 0;
    for (const r of resources) {
      for (const [key, field] of Object.entries(r.declaration.fields)) {
        if (field.spec.hidden) continue;
        fields += 1;
        const label = resolveLabel(key, field.spec);
        if (!label.ko || !/[\uac00-\ud7a3]|^[A-Z0-9 ()%/-]+$/.test(label.ko)) missing.push(`${r.name}.${key} ko`);
        if (!label.en) missing.push(`${r.name}.${key} en`);
      }
    }
    expect(missing).toEqual([]);
    expect(fields).toBeGreaterThan(1400);
  });

  it('points every reference with a target at a resource that has its key and name fields', () => {
    const byName = new Map(resources.map((r) => [r.name, r]));
    const problems: string[] = [];
    let refs = 0;
    let targeted = 0;
    let codeRefs = 0;
    for (const r of resources) {
      for (const m of r.meta.fields) {
        if (m.kind === 'ref') refs += 1;
        if (!m.ref) continue;
        if (m.kind === 'ref') targeted += 1;
        else codeRefs += 1;
        const target = byName.get(m.ref.resource);
        if (!target) {
          problems.push(`${r.name}.${m.key} -> ${m.ref.resource} (no such resource)`);
          continue;
        }
        const keys = new Set(target.meta.fields.map((x) => x.key));
        if (!keys.has(m.ref.valueField)) problems.push(`${r.name}.${m.key} -> ${m.ref.resource}.${m.ref.valueField} (no key field)`);
        if (!keys.has(m.ref.labelField)) problems.push(`${r.name}.${m.key} -> ${m.ref.resource}.${m.ref.labelField} (no name field)`);
      }
    }
    expect(problems).toEqual([]);
    console.log(`reference fields: ${refs}, with a target: ${targeted}; references by code: ${codeRefs}`);
    expect(targeted).toBeGreaterThanOrEqual(140);
    expect(codeRefs).toBeGreaterThanOrEqual(30);
  });
});
