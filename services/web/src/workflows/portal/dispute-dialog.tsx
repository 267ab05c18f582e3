import { App, Form, Input, Modal, Select } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages.js';
import { portalKeys, raiseDispute } from './portal-api.js';

const REASONS = ['WRONG_AMOUNT', 'WRONG_RATE', 'MISSING_COMMISSION', 'WRONG_AGENT', 'CHARGEBACK', 'EXCEPTION', 'OTHER'] as const;
const CLAIMED = /^\d{1,13}(\.\d{1,2})?$/;

export interface DisputeSubject {
  targetTable: string;
  targetId: number;
  /** What the dispute is about, in words (the section and the policy). */
  what: string;
  reasonCode: string;
}

interface Values {
  reasonCode: string;
  reasonText: string;
  claimedAmount?: string;
}

/** Raise a dispute on a line: a reason is required and checked before anything is sent. */
export function DisputeDialog({ subject, onClose }: { subject: DisputeSubject | null; onClose(): void }) {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [sending, setSending] = useState(false);
  if (!subject) return null;
  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSending(true);
    try {
      await raiseDispute({
        targetTable: subject.targetTable,
        targetId: subject.targetId,
        reasonCode: values.reasonCode,
        reasonText: values.reasonText.trim(),
        claimedAmount: values.claimedAmount?.trim() || undefined,
      });
      await queryClient.invalidateQueries({ queryKey: portalKeys.disputes });
      void message.success(t('portal.dispute.sent'));
      onClose();
    } catch (err) {
      void message.error(err instanceof ApiError ? t('common.errorWithCode', { text: errorText(err.code, err.message), code: err.code }) : String(err));
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal
      open
      title={t('portal.dispute.raise')}
      okText={t('portal.dispute.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={sending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <p className="portal-text">{t('portal.dispute.about', { what: subject.what })}</p>
      <Form form={form} layout="vertical" name="dispute" initialValues={{ reasonCode: subject.reasonCode }} className="dialog-form">
        <Form.Item name="reasonCode" label={t('portal.dispute.reasonCode')} rules={[{ required: true, message: t('common.required') }]}>
          <Select options={REASONS.map((r) => ({ value: r, label: t(`portal.reason.${r}` as MessageKey) }))} />
        </Form.Item>
        <Form.Item
          name="reasonText"
          label={t('portal.dispute.reasonText')}
          rules={[{ required: true, whitespace: true, message: t('portal.dispute.reasonMissing') }]}
        >
          <Input.TextArea rows={4} maxLength={2000} />
        </Form.Item>
        <Form.Item
          name="claimedAmount"
          label={t('portal.dispute.claimed')}
          rules={[{ pattern: CLAIMED, message: t('portal.dispute.claimedInvalid') }]}
        >
          <Input inputMode="decimal" autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
