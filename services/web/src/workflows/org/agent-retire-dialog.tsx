import { useMutation } from '@tanstack/react-query';
import { Alert, Form, Input, Modal } from 'antd';
import { api } from '../../api/client.js';
import { ApiError, unwrap } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { placeFieldErrors } from '../../resources/field-errors.js';
import { todayText, type RetireBody } from './org-api.js';

interface RetireValues {
  leaveDate: string;
  reason?: string;
}

/** Retirement (POST /api/agents/{id}/retire) behind a confirmation that says what it does. */
export function AgentRetireDialog({ agent, onDone, onCancel }: { agent: { agentId: number; agentName: string }; onDone(): void; onCancel(): void }) {
  const { t } = useI18n();
  const [form] = Form.useForm<RetireValues>();
  const retire = useMutation({
    mutationFn: async (values: RetireValues) => {
      const body: RetireBody = { leaveDate: values.leaveDate };
      if (values.reason?.trim()) body.reason = values.reason.trim();
      unwrap(await api.POST('/api/agents/{id}/retire', { params: { path: { id: agent.agentId } }, body }));
    },
    onSuccess: onDone,
    onError: (err) => {
      if (err instanceof ApiError) placeFieldErrors(form, err, ['leaveDate', 'reason']);
    },
  });

  return (
    <Modal
      open
      title={t('agent.retireTitle', { name: agent.agentName })}
      okText={t('agent.retire')}
      okButtonProps={{ danger: true }}
      cancelText={t('common.cancel')}
      confirmLoading={retire.isPending}
      onOk={() => form.submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('agent.retireWarning')} className="form-alert" />
      {retire.error ? <ErrorNotice error={retire.error} /> : null}
      <Form<RetireValues>
        form={form}
        name="agent-retire"
        layout="vertical"
        className="dialog-form"
        initialValues={{ leaveDate: todayText() }}
        onFinish={(values) => retire.mutate(values)}
      >
        <Form.Item name="leaveDate" label={t('agent.leaveDate')} rules={[{ required: true, message: t('login.required') }]}>
          <Input type="date" />
        </Form.Item>
        <Form.Item name="reason" label={t('agent.reason')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
