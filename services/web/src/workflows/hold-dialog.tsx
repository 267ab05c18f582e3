import { Form, Input, Modal, Select } from 'antd';
import { useI18n } from '../i18n/i18n.js';
import { useCodeOptions } from '../resources/codes.js';

export interface HoldValues {
  reason: string;
  reasonCode?: string;
}

/** Hold needs a reason; the code comes from the HOLD_REASON group. */
export function HoldDialog({ open, count, onOk, onCancel }: { open: boolean; count: number; onOk(v: HoldValues): Promise<void>; onCancel(): void }) {
  const { t } = useI18n();
  const [form] = Form.useForm<HoldValues>();
  const codes = useCodeOptions('HOLD_REASON');
  return (
    <Modal
      open={open}
      title={count > 1 ? t('settle.holdSelected', { count }) : t('settle.hold')}
      okText={t('settle.hold')}
      cancelText={t('common.cancel')}
      onOk={async () => {
        // An empty reason is shown under the field; the dialog stays open and nothing is sent.
        let values: HoldValues;
        try {
          values = await form.validateFields();
        } catch {
          return;
        }
        await onOk({ ...values, reason: values.reason.trim() });
        form.resetFields();
      }}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="hold">
        <Form.Item name="reasonCode" label={t('settle.holdReasonCode')}>
          <Select allowClear options={codes} />
        </Form.Item>
        <Form.Item name="reason" label={t('settle.holdReason')} rules={[{ required: true, whitespace: true, message: t('settle.holdReasonMissing') }]}>
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
