import { DeleteOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, Button, Card, Form, Radio, Select, type FormInstance } from 'antd';
import { useI18n, lookup } from '../../i18n/i18n.js';
import { FieldInput, saveFields } from '../../resources/form-page.js';
import { fieldLabel, idField, useResourceMeta } from '../../resources/meta.js';
import { DateInput } from '../../shared/date-input.js';
import { ruleTables, type ChangeAction } from './simulation-api.js';
import { monthStart, replaceStart } from './simulation-model.js';
import { RuleRowSelect } from './rule-row-select.js';

type Row = Record<string, unknown>;
const ACTIONS: ChangeAction[] = ['ADD', 'REPLACE', 'END'];

/** `GET /api/simulations/rule-tables`: the tables a change may touch and the resource whose form each one uses. */
export function useRuleTables() {
  return useQuery({ queryKey: ['simulations', 'rule-tables'], staleTime: 10 * 60_000, queryFn: () => ruleTables() });
}

/** A rule table in words: the catalog's name, else the server's label. */
export function useRuleTableName() {
  const { lang } = useI18n();
  return (ruleTable: string, serverLabel?: string) => lookup(lang, `sim.table.${ruleTable}`) ?? serverLabel ?? ruleTable;
}

/**
 * One proposed change: a rule table, what to do (add a row, replace a row from a day, end a row on a day),
 * the row it applies to, and the new row's values in the same fields the rule's own page saves
 * (the metadata-driven inputs of the generic forms; the server checks them with the rule's own schema).
 */
export function RuleChangeCard({
  form,
  index,
  baseMonth,
  onRemove,
}: {
  form: FormInstance;
  index: number;
  baseMonth: string | undefined;
  onRemove(): void;
}) {
  const { t } = useI18n();
  const tableName = useRuleTableName();
  const tables = useRuleTables().data ?? [];
  const resources = useResourceMeta().data ?? [];
  const ruleTable = Form.useWatch(['changes', index, 'ruleTable'], form) as string | undefined;
  const action = (Form.useWatch(['changes', index, 'action'], form) as ChangeAction | undefined) ?? 'ADD';
  const table = tables.find((x) => x.ruleTable === ruleTable);
  const resource = table ? resources.find((r) => r.name === table.resource) : undefined;
  const idKey = table?.idField ?? (resource ? idField(resource)?.key : undefined) ?? 'id';
  const fields = resource ? saveFields(resource) : [];
  const start = monthStart(baseMonth);
  // The picked row names its references (its joined names) in the value inputs without a request.
  const [picked, setPicked] = useState<Row | undefined>();

  const pickTable = (next: string | undefined) =>
    form.setFieldValue(['changes', index], { ruleTable: next, action, ...(action === 'ADD' && start ? { values: { effectiveFrom: start } } : {}) });
  const pickAction = (next: ChangeAction) =>
    form.setFieldValue(['changes', index], {
      ruleTable,
      action: next,
      ...(next === 'ADD' && start ? { values: { effectiveFrom: start } } : {}),
      ...(next === 'END' && start ? { endDate: start } : {}),
    });
  const pickRow = (row: Row | undefined) => {
    setPicked(row);
    if (!row || !resource) return;
    if (action === 'REPLACE') {
      form.setFieldValue(['changes', index, 'values'], { ...replaceStart(resource, row), ...(start ? { effectiveFrom: start } : {}) });
    }
  };

  return (
    <Card
      size="small"
      className="sim-change"
      title={<h3 className="card-title">{t('sim.changeNo', { no: index + 1 })}</h3>}
      extra={
        <Button size="small" danger icon={<DeleteOutlined />} onClick={onRemove} aria-label={t('sim.removeChange', { no: index + 1 })}>
          {t('sim.remove')}
        </Button>
      }
    >
      <div className="sim-change-head">
        <Form.Item name={[index, 'ruleTable']} label={t('sim.ruleTable')} rules={[{ required: true, message: t('login.required') }]}>
          <Select
            className="sim-table-select"
            placeholder={t('sim.pickTable')}
            options={tables.map((x) => ({ value: x.ruleTable, label: tableName(x.ruleTable, x.label) }))}
            onChange={pickTable}
          />
        </Form.Item>
        <Form.Item name={[index, 'action']} label={t('sim.action')} initialValue="ADD">
          <Radio.Group optionType="button" onChange={(e) => pickAction(e.target.value as ChangeAction)} options={ACTIONS.map((a) => ({ value: a, label: t(`sim.action.${a}`) }))} />
        </Form.Item>
      </div>
      {table && !resource && <Alert type="warning" showIcon title={t('sim.noForm')} />}
      {resource && action !== 'ADD' && (
        <Form.Item
          name={[index, 'targetId']}
          label={action === 'REPLACE' ? t('sim.rowToReplace') : t('sim.rowToEnd')}
          rules={[{ required: true, message: t('login.required') }]}
        >
          <RuleRowSelect resource={resource} idKey={idKey} onRow={pickRow} />
        </Form.Item>
      )}
      {resource && action === 'END' && (
        <Form.Item name={[index, 'endDate']} label={t('sim.endDate')} extra={t('sim.endDateHint')} rules={[{ required: true, message: t('login.required') }]}>
          <DateInput />
        </Form.Item>
      )}
      {resource && action !== 'END' && (
        <div className="sim-values">
          {fields.map((f) => (
            <Form.Item
              key={f.key}
              name={[index, 'values', f.key]}
              label={fieldLabel(f)}
              // The new row's first day decides which contracts it prices: say so where it is picked.
              extra={f.key === 'effectiveFrom' ? t('sim.contractDateHint') : undefined}
              valuePropName={f.kind === 'bool' ? 'checked' : 'value'}
              rules={f.required && f.kind !== 'bool' ? [{ required: true, message: t('login.required') }] : []}
            >
              <FieldInput field={f} row={picked} />
            </Form.Item>
          ))}
        </div>
      )}
    </Card>
  );
}
