import { Button, Form, Input, Select, Space } from 'antd';
import { useEffect } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { DateInput } from '../shared/date-input.js';
import { MonthInput } from '../shared/month-input.js';
import { useCodeOptions } from './codes.js';
import { displayKind, fieldLabel, type FieldMeta, type ResourceMeta } from './meta.js';
import { RefSelect } from './ref-select.js';
import type { ListState } from './url-state.js';

/** The URL keys of a resource's filters: eq `key`, range `keyFrom`/`keyTo`, in `key` (comma list). */
export function filterKeys(resource: ResourceMeta): string[] {
  return resource.fields.flatMap((f) => (f.filter === 'range' ? [`${f.key}From`, `${f.key}To`] : f.filter ? [f.key] : []));
}

/** The control of one filter value: a picker for references, months and dates, else text. */
function ValueInput({ field, ...control }: { field: FieldMeta } & Record<string, unknown>) {
  const kind = displayKind(field);
  if (kind === 'ref' && field.ref) {
    return <RefSelect {...control} field={field} multiple={field.filter === 'in'} className="filter-select" aria-label={fieldLabel(field)} />;
  }
  if (kind === 'month') return <MonthInput {...(control as object)} />;
  if (kind === 'date') return <DateInput {...(control as object)} />;
  return <Input {...control} type="text" />;
}

function ChoiceFilter({ field, ...control }: { field: FieldMeta } & Record<string, unknown>) {
  const { t, statusName } = useI18n();
  const codes = useCodeOptions(field.codeGroup);
  const options =
    field.kind === 'bool'
      ? [
          { value: 'true', label: t('common.yes') },
          { value: 'false', label: t('common.no') },
        ]
      : codes.length
        ? codes
        : (field.enumValues ?? []).map((v) => ({ value: v, label: statusName(v) }));
  return (
    <Select
      {...control}
      allowClear
      mode={field.filter === 'in' ? 'multiple' : undefined}
      placeholder={t('common.all')}
      options={options}
      className="filter-select"
      aria-label={fieldLabel(field)}
    />
  );
}

function hasChoices(field: FieldMeta): boolean {
  return field.kind === 'bool' || !!field.enumValues?.length || !!field.codeGroup;
}

export function FilterBar({ resource, state }: { resource: ResourceMeta; state: ListState }) {
  const { t } = useI18n();
  const [form] = Form.useForm<Record<string, unknown>>();
  const filters = resource.fields.filter((f) => f.filter);
  const searchTypes = new Set(resource.searchTypes ?? resource.fields.filter((f) => f.search).map((f) => f.key));
  const searchable = resource.fields.filter((f) => searchTypes.has(f.key));
  const statusField = resource.statusField ? resource.fields.find((f) => f.key === resource.statusField && !f.filter) : undefined;
  const dateField = resource.dateFilter ? resource.fields.find((f) => f.key === resource.dateFilter) : undefined;
  const formId = `filters-${resource.name}`;

  // The URL is the truth: going back or following a link refills the form.
  useEffect(() => {
    const values: Record<string, unknown> = { ...state.query };
    for (const f of filters) if (f.filter === 'in' && state.query[f.key]) values[f.key] = state.query[f.key]!.split(',');
    form.resetFields();
    form.setFieldsValue(values);
  }, [state.query]);

  if (filters.length === 0 && searchable.length === 0 && !statusField && !dateField) return null;

  const submit = (values: Record<string, unknown>) => {
    const patch: Record<string, string | undefined> = {};
    for (const key of [...filterKeys(resource), 'searchType', 'searchKeyword', 'status', 'startDate', 'endDate']) {
      const value = values[key];
      patch[key] = Array.isArray(value) ? (value.length ? value.join(',') : undefined) : value == null ? undefined : String(value);
    }
    state.update(patch);
  };

  return (
    <Form form={form} layout="inline" onFinish={submit} className="filter-bar" name={formId} role="search">
      {filters.map((f) =>
        f.filter === 'range' ? (
          <Form.Item key={f.key} label={fieldLabel(f)}>
            <Space.Compact>
              <Form.Item name={`${f.key}From`} noStyle>
                <ValueInput field={f} aria-label={`${fieldLabel(f)} ${t('common.from')}`} placeholder={t('common.from')} />
              </Form.Item>
              <Form.Item name={`${f.key}To`} noStyle>
                <ValueInput field={f} aria-label={`${fieldLabel(f)} ${t('common.to')}`} placeholder={t('common.to')} />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        ) : (
          <Form.Item key={f.key} name={f.key} label={fieldLabel(f)}>
            {hasChoices(f) ? <ChoiceFilter field={f} /> : <ValueInput field={f} />}
          </Form.Item>
        ),
      )}
      {statusField && (
        <Form.Item name="status" label={fieldLabel(statusField)}>
          {hasChoices(statusField) ? <ChoiceFilter field={{ ...statusField, filter: 'eq' }} /> : <Input />}
        </Form.Item>
      )}
      {dateField && (
        <Form.Item label={fieldLabel(dateField)}>
          <Space.Compact>
            <Form.Item name="startDate" noStyle>
              <DateInput aria-label={`${fieldLabel(dateField)} ${t('common.from')}`} placeholder={t('common.from')} />
            </Form.Item>
            <Form.Item name="endDate" noStyle>
              <DateInput aria-label={`${fieldLabel(dateField)} ${t('common.to')}`} placeholder={t('common.to')} />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
      )}
      {searchable.length > 0 && (
        <>
          <Form.Item name="searchType" label={t('common.searchIn')}>
            <Select
              allowClear
              placeholder={t('common.anyField')}
              className="filter-select"
              options={searchable.map((f) => ({ value: f.key, label: fieldLabel(f) }))}
            />
          </Form.Item>
          <Form.Item name="searchKeyword" label={t('common.keyword')}>
            <Input allowClear />
          </Form.Item>
        </>
      )}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('common.search')}
          </Button>
          <Button onClick={() => state.reset()}>{t('common.reset')}</Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
