import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal, Typography } from 'antd';
import { ApiError } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { placeFieldErrors } from '../../resources/field-errors.js';
import { FieldInput } from '../../resources/form-page.js';
import { fieldLabel, type ResourceMeta } from '../../resources/meta.js';
import type { ReviseResult, RuleKind } from './rule-kinds.js';

type Row = Record<string, unknown>;

/** The day after `day` (yyyy-MM-dd): the earliest start a revision of a row starting on `day` may have. */
function dayAfter(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * A new version of a rule (POST {path}/{id}/revise): the revised row is closed at the new
 * effectiveFrom and the next version starts there with the changed values. The row's version goes
 * along, so a row changed meanwhile is refused (B002) instead of being overwritten.
 */
export function RuleReviseDialog({
  kind,
  resource,
  row,
  idKey,
  onDone,
  onCancel,
}: {
  kind: RuleKind & { revise: NonNullable<RuleKind['revise']> };
  resource: ResourceMeta;
  row: Row;
  idKey: string;
  onDone(result: ReviseResult, effectiveFrom: string): void;
  onCancel(): void;
}) {
  const { t } = useI18n();
  const [form] = Form.useForm<Row>();
  const fields = kind.revise.fields.map((key) => resource.fields.find((f) => f.key === key) ?? { key, kind: 'text', sort: false, search: false, save: true, required: false, readOnly: false });
  const initial: Row = { effectiveFrom: dayAfter(String(row.effectiveFrom)) };
  for (const f of fields) initial[f.key] = row[f.key] ?? undefined;

  const revise = useMutation({
    mutationFn: async (values: Row) => kind.revise.call(Number(row[idKey]), { ...values, version: row.version }),
    onSuccess: (result, values) => onDone(result, String(values.effectiveFrom)),
    onError: (err) => {
      if (err instanceof ApiError) placeFieldErrors(form, err, ['effectiveFrom', ...kind.revise.fields]);
    },
  });

  return (
    <Modal
      open
      title={t('rules.reviseTitle', { id: String(row[idKey]), version: String(row.version ?? '') })}
      okText={t('rules.createVersion')}
      cancelText={t('common.cancel')}
      confirmLoading={revise.isPending}
      onOk={() => form.submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('rules.reviseText', { from: String(row.effectiveFrom), to: String(row.effectiveTo ?? t('rules.open')) })}</Typography.Paragraph>
      {revise.error ? <ErrorNotice error={revise.error} /> : null}
      <Form<Row> form={form} name="rule-revise" layout="vertical" className="dialog-form" initialValues={initial} onFinish={(v) => revise.mutate(v)}>
        <Form.Item name="effectiveFrom" label={t('rules.newFrom')} rules={[{ required: true, message: t('login.required') }]}>
          <Input type="date" />
        </Form.Item>
        {fields.map((f) => (
          <Form.Item
            key={f.key}
            name={f.key}
            label={fieldLabel(f)}
            valuePropName={f.kind === 'bool' ? 'checked' : 'value'}
            rules={f.required ? [{ required: true, message: t('login.required') }] : []}
          >
            <FieldInput field={f} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
