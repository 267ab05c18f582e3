import { Alert, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { DateInput } from '../../shared/date-input.js';
import { adoptSimulation } from './simulation-api.js';

/**
 * Adopting asks for approval: the changes become real rule revisions dated `effectiveFrom` once someone
 * other than the author approves them in the approvals page. The server's refusal is shown in its words.
 */
export function AdoptDialog({
  simulationId,
  name,
  changeCount,
  defaultFrom,
  onDone,
  onCancel,
}: {
  simulationId: number;
  name: string;
  changeCount: number;
  defaultFrom: string | undefined;
  onDone(approvalId: number): void;
  onCancel(): void;
}) {
  const { t, errorText } = useI18n();
  const [form] = Form.useForm<{ effectiveFrom?: string }>();
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const submit = async ({ effectiveFrom }: { effectiveFrom?: string }) => {
    if (!effectiveFrom) return;
    setBusy(true);
    setRefused(null);
    try {
      onDone(await adoptSimulation(simulationId, effectiveFrom));
    } catch (err) {
      setRefused(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})${err.fieldErrors.length ? `: ${err.fieldErrors.map((e) => e.message).join('; ')}` : ''}` : t('error.network'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('sim.adoptTitle', { name })}
      okText={t('sim.adoptOk')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('sim.adoptText', { count: changeCount })}</Typography.Paragraph>
      {refused && <Alert type="error" role="alert" showIcon className="form-alert" title={t('sim.adoptRefused')} description={refused} />}
      <Form form={form} name="simulation-adopt" layout="vertical" initialValues={{ effectiveFrom: defaultFrom }} onFinish={(v) => void submit(v)}>
        <Form.Item name="effectiveFrom" label={t('sim.adoptFrom')} extra={t('sim.adoptFromHint')} rules={[{ required: true, message: t('login.required') }]}>
          <DateInput />
        </Form.Item>
      </Form>
    </Modal>
  );
}
