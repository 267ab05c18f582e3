import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { dynamicApi } from '../api/client.js';
import { ApiError, unwrap, type FieldError } from '../api/envelope.js';
import { Loading } from '../shell/app-layout.js';
import { useI18n } from '../i18n/i18n.js';
import { DateInput } from '../shared/date-input.js';
import { MonthInput } from '../shared/month-input.js';
import type { PageMenu } from '../shell/menus.js';
import { useCodeOptions } from './codes.js';
import { itemPath, useRecord } from './detail-page.js';
import { ErrorNotice } from './error-notice.js';
import { placeFieldErrors } from './field-errors.js';
import { MaskedInput } from './masked-input.js';
import { displayKind, fieldLabel, resolvePath, type FieldMeta, type ResourceMeta } from './meta.js';
import { useSectionLabel } from './resource-title.js';
import { RefSelect } from './ref-select.js';

type Values = Record<string, unknown>;

export function saveFields(resource: ResourceMeta): FieldMeta[] {
  return resource.fields.filter((f) => f.save && !f.readOnly && f.kind !== 'id' && f.kind !== 'version');
}

/**
 * The control of one field; Form.Item hands it id, value and onChange, passed on untouched. References
 * are picked by name, codes from their group's names, months and dates from calendars.
 */
export function FieldInput({ field, row, ...common }: { field: FieldMeta; row?: Values | undefined } & Record<string, unknown>) {
  const codes = useCodeOptions(field.codeGroup);
  const { statusName } = useI18n();
  if (field.ref && displayKind(field) === 'ref') return <RefSelect {...common} field={field} row={row} />;
  switch (field.kind) {
    case 'bool':
      return <Switch {...common} />;
    case 'int':
    case 'ref':
      return <InputNumber {...common} className="number-input" />;
    case 'money':
    case 'rate':
      // Kept as text: money never becomes a JS number on its way to the server.
      return <Input {...common} inputMode="decimal" className="number-input" />;
    case 'date':
      return <DateInput {...common} />;
    case 'month':
      return <MonthInput {...common} />;
    case 'json':
      return <Input.TextArea {...common} rows={4} />;
    case 'enum':
      return <Select {...common} allowClear options={codes.length ? codes : (field.enumValues ?? []).map((v) => ({ value: v, label: statusName(v) }))} />;
    default:
      if (field.codeGroup) return <Select {...common} allowClear showSearch={{ optionFilterProp: 'label' }} options={codes} />;
      return <Input {...common} type={field.kind === 'email' ? 'email' : 'text'} />;
  }
}

/**
 * Create sends what was filled in (the server applies its defaults); update sends every field the
 * form shows, cleared ones as null (the server treats an absent field as unchanged), except masked
 * fields, which go only when a new value was typed.
 */
function toBody(fields: FieldMeta[], values: Values, editing: boolean): Values {
  const body: Values = {};
  for (const f of fields) {
    if (editing && f.createOnly) continue;
    let value = values[f.key];
    // write-only: a masked field goes out only when a new value was typed (MaskedInput)
    if (editing && f.masked && (value === undefined || value === null || value === '')) continue;
    if (value === '' || value === undefined) {
      if (!editing || f.nullable === false) continue;
      value = null;
    }
    if (f.kind === 'json' && typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        /* sent as typed: the server names the field in its E411 */
      }
    }
    if (value !== null || !f.required) body[f.key] = value;
  }
  return body;
}

export function ResourceForm({ resource, page, id }: { resource: ResourceMeta; page: PageMenu; id?: string }) {
  const { t, errorText } = useI18n();
  const sectionLabel = useSectionLabel(resource, page);
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ text: string; rest: FieldError[] } | null>(null);
  const fields = saveFields(resource);
  const editing = id !== undefined;
  const existing = useRecord(resource, id ?? '', editing);

  useEffect(() => {
    if (!editing || !existing.data) return;
    const initial: Values = {};
    for (const f of fields) {
      const v = existing.data[f.key];
      if (f.masked) continue; // shown as text by MaskedInput, never sent back
      initial[f.key] = f.kind === 'json' && v != null ? JSON.stringify(v) : v;
    }
    form.setFieldsValue(initial);
  }, [existing.data]); // fields derive from resource, stable for the page

  if (editing && existing.isLoading) return <Loading />;
  if (editing && existing.error) return <ErrorNotice error={existing.error} />;

  const submit = async (values: Values) => {
    setBusy(true);
    setFailure(null);
    try {
      const body = toBody(fields, values, editing);
      let newId = id;
      if (editing) {
        const version = existing.data?.version;
        unwrap(await dynamicApi.PUT(itemPath(resource, id!), { body: version == null ? body : { ...body, version } }));
      } else {
        const base = resolvePath(resource, new URLSearchParams(window.location.search)).path ?? resource.path;
        const created = unwrap<{ id?: number } | undefined>(await dynamicApi.POST(base, { body }));
        newId = created?.id === undefined ? undefined : String(created.id);
      }
      void message.success(t('common.saved'));
      await queryClient.invalidateQueries({ queryKey: ['list', resource.path] });
      await queryClient.invalidateQueries({ queryKey: ['record', resource.path] });
      await navigate(newId ? `/${page.path}/${encodeURIComponent(newId)}${window.location.search}` : `/${page.path}${window.location.search}`);
    } catch (err) {
      if (err instanceof ApiError) {
        const rest = placeFieldErrors(form, err, fields.map((f) => f.key));
        setFailure({ text: `${errorText(err.code, err.message)} (${err.code})`, rest });
      } else setFailure({ text: t('error.network'), rest: [] });
    } finally {
      setBusy(false);
    }
  };

  const formName = `${resource.name}-form`;
  return (
    <section className="resource-form" aria-label={sectionLabel}>
      {failure && (
        <Alert
          type="error"
          role="alert"
          showIcon
          title={failure.text}
          description={failure.rest.length ? failure.rest.map((e) => `${e.field}: ${e.message}`).join('; ') : undefined}
          className="form-alert"
        />
      )}
      <Form<Values> form={form} name={formName} layout="vertical" onFinish={submit} className="resource-form-body">
        {fields.map((f) => (
          <Form.Item
            key={f.key}
            name={f.key}
            label={fieldLabel(f)}
            valuePropName={f.kind === 'bool' ? 'checked' : 'value'}
            rules={f.required && f.kind !== 'bool' ? [{ required: true, message: t('login.required') }] : []}
          >
            {editing && f.masked ? (
              <MaskedInput field={f} shown={existing.data?.[f.key]} disabled={!!f.createOnly} />
            ) : (
              <FieldInput field={f} row={existing.data} disabled={editing && !!f.createOnly} />
            )}
          </Form.Item>
        ))}
        <Space>
          <Button type="primary" htmlType="submit" loading={busy}>
            {t('common.save')}
          </Button>
          <Button onClick={() => void navigate(-1)}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </section>
  );
}
