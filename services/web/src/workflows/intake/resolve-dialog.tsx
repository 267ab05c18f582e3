import { Form, Input, Modal, Radio, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.js';

export type ResolveChoice = 'RESOLVED' | 'IGNORED';

/** Resolve (re-parse the raw row with the mappings of now) or ignore, with an optional note. */
export function ResolveDialog({
  count,
  choice,
  onOk,
  onCancel,
}: {
  count: number;
  choice: ResolveChoice;
  onOk(choice: ResolveChoice, note: string): Promise<void>;
  onCancel(): void;
}) {
  const { t } = useI18n();
  const [form] = Form.useForm<{ choice: ResolveChoice; note?: string }>();
  const [busy, setBusy] = useState(false);
  const picked = Form.useWatch('choice', form) ?? choice;
  return (
    <Modal
      open
      title={t('intake.resolveTitle', { count })}
      okText={picked === 'IGNORED' ? t('intake.ignore') : t('intake.resolve')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onOk={async () => {
        const values = await form.validateFields();
        setBusy(true);
        try {
          await onOk(values.choice, values.note ?? '');
        } finally {
          setBusy(false);
        }
      }}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Form form={form} name="resolve" layout="vertical" initialValues={{ choice }}>
        <Form.Item name="choice" label={t('intake.resolveAs')}>
          <Radio.Group
            options={[
              { value: 'RESOLVED', label: t('intake.resolveReparse') },
              { value: 'IGNORED', label: t('intake.ignoreKeep') },
            ]}
          />
        </Form.Item>
        <Typography.Paragraph type="secondary">{picked === 'IGNORED' ? t('intake.ignoreText') : t('intake.resolveText')}</Typography.Paragraph>
        <Form.Item name="note" label={t('intake.note')}>
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
