import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { api } from '../api/client.js';
import { ApiError, unwrap } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';
import { CLOSE_KEY } from '../pages/month-close-data.js';
import type { ResourceMeta } from '../resources/meta.js';
import ResourcePage from '../resources/resource-page.js';
import { formatMoney } from '../shared/format.js';
import { useGrant } from '../shell/menus.js';

/** The menu the server checks APPROVE on for both decisions (exception.routes.ts). */
const MENU = 'LEDGER_EXCEPTION';
const PATH = '/api/ledger/exception';

/** A row that can still be decided: only PENDING exceptions are approved or rejected (APPROVE_STATUSES). */
interface Pending {
  ledgerId: number;
  agent: string;
  amount: string;
  exceptionName: string;
  reason: string;
}

function pendingOf(row: Record<string, unknown>): Pending | undefined {
  if (typeof row.ledgerId !== 'number' || row.approveStatus !== 'PENDING') return undefined;
  const text = (v: unknown) => (v == null ? '' : String(v));
  return {
    ledgerId: row.ledgerId,
    agent: text(row.agentName ?? row.agentId),
    amount: text(row.amount),
    exceptionName: text(row.exceptionName ?? row.exceptionCode),
    reason: text(row.reason),
  };
}

/** After a decision: the exception list and the cockpit (its count of exceptions waiting) read afresh. */
function useDecided() {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return {
    done: async (text: string) => {
      void message.success(text);
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['list', PATH] }), queryClient.invalidateQueries({ queryKey: [CLOSE_KEY] })]);
    },
    reasonOf: (err: unknown) => (err instanceof ApiError ? errorText(err.code, err.message) : t('error.network')),
  };
}

function ExceptionActions({ row, onReject }: { row: Pending; onReject(row: Pending): void }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const { done, reasonOf } = useDecided();
  const approve = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/ledger/exception/{id}/approve', { params: { path: { id: row.ledgerId } } })),
    onSuccess: () => done(t('exception.approved', { agent: row.agent })),
    onError: (err) => void message.error(t('exception.approveFailed', { error: reasonOf(err) })),
  });
  return (
    <Space size="small" className="nowrap">
      <Popconfirm
        title={t('exception.approveQuestion', { agent: row.agent, amount: formatMoney(row.amount) })}
        okText={t('exception.approve')}
        cancelText={t('common.cancel')}
        onConfirm={() => approve.mutateAsync().catch(() => undefined)}
      >
        <Button size="small" type="primary" icon={<CheckOutlined />} loading={approve.isPending} aria-label={t('exception.approveRow', { agent: row.agent })}>
          {t('exception.approve')}
        </Button>
      </Popconfirm>
      <Button size="small" danger icon={<CloseOutlined />} onClick={() => onReject(row)} aria-label={t('exception.rejectRow', { agent: row.agent })}>
        {t('exception.reject')}
      </Button>
    </Space>
  );
}

/** Rejecting needs a reason: an empty one is shown under the field, the dialog stays open and nothing is sent. */
function RejectDialog({ row, onClose }: { row: Pending | null; onClose(): void }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const { done, reasonOf } = useDecided();
  const [form] = Form.useForm<{ reason: string }>();
  const reject = useMutation({
    mutationFn: async ({ id, reason }: { id: number; reason: string }) =>
      unwrap(await api.POST('/api/ledger/exception/{id}/reject', { params: { path: { id } }, body: { reason } })),
  });
  return (
    <Modal
      open={row !== null}
      title={row ? t('exception.rejectTitle', { agent: row.agent }) : undefined}
      okText={t('exception.reject')}
      okButtonProps={{ danger: true }}
      confirmLoading={reject.isPending}
      cancelText={t('common.cancel')}
      onCancel={onClose}
      destroyOnHidden
      onOk={async () => {
        if (!row) return;
        let values: { reason: string };
        try {
          values = await form.validateFields();
        } catch {
          return;
        }
        try {
          await reject.mutateAsync({ id: row.ledgerId, reason: values.reason.trim() });
        } catch (err) {
          void message.error(t('exception.rejectFailed', { error: reasonOf(err) }));
          return;
        }
        onClose();
        await done(t('exception.rejected', { agent: row.agent }));
      }}
    >
      {row && (
        <Typography.Paragraph className="reject-of">
          {t('exception.rejectOf', { name: row.exceptionName, amount: formatMoney(row.amount), reason: row.reason })}
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical" name="exception-reject">
        <Form.Item name="reason" label={t('exception.rejectReason')} rules={[{ required: true, whitespace: true, message: t('exception.rejectReasonMissing') }]}>
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The exception ledger: the generic list, plus per PENDING row the approval and the rejection with a reason,
 * for a user holding APPROVE on the menu (the actions column is not drawn for anyone else).
 */
export default function ExceptionPage() {
  const can = useGrant(MENU);
  const [rejecting, setRejecting] = useState<Pending | null>(null);
  const rowActions = (_resource: ResourceMeta, row: Record<string, unknown>) => {
    const pending = pendingOf(row);
    return pending ? <ExceptionActions row={pending} onReject={setRejecting} /> : null;
  };
  return (
    <>
      <ResourcePage rowActions={can('APPROVE') ? rowActions : undefined} actionsOn={(r) => r.path === PATH} />
      <RejectDialog row={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}
