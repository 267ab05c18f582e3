import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Input, Space, Table, Tabs, Timeline, type TableProps } from 'antd';
import { useState } from 'react';
import { api } from '../api/client.js';
import { ApiError, unwrap, type PageResponse } from '../api/envelope.js';
import type { paths } from '../api/schema';
import { useI18n } from '../i18n/i18n.js';
import { formatTimestamp } from '../shared/format.js';
import { ErrorNotice } from '../resources/error-notice.js';
import { PageTitle } from '../resources/resource-page.js';
import { PAGE_SIZES, useListState } from '../resources/url-state.js';
import { StatusTag } from '../shared/status-tag.js';
import { Loading } from '../shell/app-layout.js';
import { useCurrentPage, useGrant } from '../shell/menus.js';

type Request = paths['/api/approvals/requests/{requestId}']['get']['responses'][200]['content']['application/json']['data'];
type Row = Omit<Request, 'steps'>;
type Box = 'pending' | 'mine';

function RequestDetail({ id, onClose }: { id: number; onClose(): void }) {
  const { t, errorText } = useI18n();
  const can = useGrant('APPROVAL');
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const detail = useQuery({
    queryKey: ['approvals', 'request', id],
    queryFn: async () => unwrap<Request>(await api.GET('/api/approvals/requests/{requestId}', { params: { path: { requestId: id } } })),
  });
  const decide = useMutation({
    mutationFn: async (decision: 'approve' | 'reject') =>
      unwrap(
        decision === 'approve'
          ? await api.POST('/api/approvals/requests/{requestId}/approve', { params: { path: { requestId: id } }, body: comment.trim() ? { comment: comment.trim() } : {} })
          : await api.POST('/api/approvals/requests/{requestId}/reject', { params: { path: { requestId: id } }, body: { reason: comment } }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['approvals'] });
      onClose();
    },
  });
  const r = detail.data;
  return (
    <Drawer open title={r ? `${r.targetTypeName ?? r.targetType} #${r.targetId}: ${r.title ?? ''}` : t('common.loading')} onClose={onClose} size="large">
      {detail.isLoading && <Loading />}
      {detail.error ? <ErrorNotice error={detail.error} /> : null}
      {decide.error ? (
        <Alert
          type="error"
          role="alert"
          showIcon
          title={decide.error instanceof ApiError ? `${errorText(decide.error.code, decide.error.message)} (${decide.error.code})` : String(decide.error)}
          description={decide.error instanceof ApiError ? decide.error.fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; ') || undefined : undefined}
        />
      ) : null}
      {r && (
        <>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'status', label: t('common.status'), children: <StatusTag status={r.status} /> },
              { key: 'line', label: t('approvals.line'), children: r.lineCode },
              { key: 'step', label: t('approvals.step'), children: `${r.currentStep} / ${r.stepCount} (${r.activeRole ?? '-'})` },
              { key: 'by', label: t('approvals.requestedBy'), children: `${r.requesterName ?? r.requestedBy} · ${formatTimestamp(r.requestedAt)}` },
            ]}
          />
          <Timeline
            className="run-steps"
            items={r.steps.map((s) => ({
              key: s.stepNo,
              children: (
                <span>
                  {s.stepNo}. {s.roleCode} <StatusTag status={s.status} /> {s.deciderName ?? ''} {s.comment ?? ''}
                </span>
              ),
            }))}
          />
          {can('APPROVE') && r.status !== 'APPROVED' && r.status !== 'REJECTED' && r.status !== 'CANCELLED' && (
            <Space orientation="vertical" className="receive-panel">
              <Input.TextArea aria-label={t('approvals.comment')} rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
              <Space>
                <Button type="primary" loading={decide.isPending && decide.variables === 'approve'} onClick={() => decide.mutate('approve')}>
                  Approve
                </Button>
                <Button danger loading={decide.isPending && decide.variables === 'reject'} onClick={() => decide.mutate('reject')}>
                  Reject
                </Button>
              </Space>
            </Space>
          )}
        </>
      )}
    </Drawer>
  );
}

function Inbox({ box, onOpen }: { box: Box; onOpen(id: number): void }) {
  const { t } = useI18n();
  const state = useListState(['targetType', 'box']);
  const list = useQuery({
    queryKey: ['approvals', box, state.query],
    placeholderData: (previous) => previous,
    queryFn: async () => {
      const query = { pageSize: state.pageSize, ...Object.fromEntries(Object.entries(state.query).filter(([k]) => k !== 'box')) } as never;
      return unwrap<PageResponse<Row>>(
        box === 'pending'
          ? await api.GET('/api/approvals/requests/pending', { params: { query } })
          : await api.GET('/api/approvals/requests/mine', { params: { query } }),
      );
    },
  });
  const columns: TableProps<Row>['columns'] = [
    {
      key: 'id',
      dataIndex: 'requestId',
      title: t('approvals.request'),
      render: (id: number) => (
        <Button type="link" size="small" onClick={() => onOpen(id)} aria-label={t('approvals.open', { id })}>
          {id}
        </Button>
      ),
    },
    { key: 'type', dataIndex: 'targetTypeName', title: t('approvals.type'), render: (v: string | null, r) => v ?? r.targetType },
    { key: 'target', dataIndex: 'targetId', title: t('approvals.target') },
    { key: 'title', dataIndex: 'title', title: t('approvals.titleCol') },
    { key: 'status', dataIndex: 'status', title: t('common.status'), render: (s: string) => <StatusTag status={s} /> },
    { key: 'step', title: t('approvals.step'), render: (_: unknown, r) => `${r.currentStep} / ${r.stepCount}` },
    { key: 'by', dataIndex: 'requesterName', title: t('approvals.requestedBy') },
    { key: 'at', dataIndex: 'requestedAt', title: t('approvals.requestedAt'), render: (v: string) => formatTimestamp(v) },
  ];
  return (
    <>
      {list.error ? <ErrorNotice error={list.error} /> : null}
      <Table<Row>
        rowKey="requestId"
        size="small"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.list ?? []}
        onChange={(p) => state.update({ pageNum: p.current ?? 1, pageSize: p.pageSize ?? 20 }, { keepPage: true })}
        pagination={{ current: state.pageNum, pageSize: state.pageSize, total: list.data?.total ?? 0, showSizeChanger: true, pageSizeOptions: PAGE_SIZES.map(String) }}
      />
    </>
  );
}

/** Approvals: what waits for my roles, what I asked for, and one request with its steps. */
export default function ApprovalsPage() {
  const { t } = useI18n();
  const page = useCurrentPage();
  const state = useListState(['box']);
  const [open, setOpen] = useState<number | null>(null);
  const box: Box = state.query.box === 'mine' ? 'mine' : 'pending';
  return (
    <>
      {page && <PageTitle page={page} />}
      <Tabs
        activeKey={box}
        onChange={(key) => state.update({ box: key })}
        items={[
          { key: 'pending', label: t('approvals.pending'), children: box === 'pending' ? <Inbox box="pending" onOpen={setOpen} /> : null },
          { key: 'mine', label: t('approvals.mine'), children: box === 'mine' ? <Inbox box="mine" onOpen={setOpen} /> : null },
        ]}
      />
      {open !== null && <RequestDetail id={open} onClose={() => setOpen(null)} />}
    </>
  );
}
