import { EditOutlined, SwapOutlined, UserDeleteOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Space, Table, type TableProps } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.js';
import { unwrap } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { useRecord } from '../../resources/detail-page.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { FieldValue } from '../../resources/field-value.js';
import { fieldLabel, useResourceMeta, type ResourceMeta } from '../../resources/meta.js';
import ResourcePage, { PageTitle } from '../../resources/resource-page.js';
import { StatusTag } from '../../shared/status-tag.js';
import { Loading } from '../../shell/app-layout.js';
import { useCurrentPage, useGrant, type PageMenu } from '../../shell/menus.js';
import { AgentMoveDialog } from './agent-move-dialog.js';
import { AgentRetireDialog } from './agent-retire-dialog.js';
import type { AgentHistory } from './org-api.js';

const AGENT_PATH = '/api/agents';
/** Shown in the header and the history; ids and codes behind the names stay out of the card. */
const HIDDEN = new Set(['orgId', 'gradeId', 'status', 'taxType', 'vatType']);

function History({ agentId }: { agentId: number }) {
  const { t } = useI18n();
  const history = useQuery({
    queryKey: ['agents', 'history', agentId],
    queryFn: async () => unwrap<AgentHistory[]>(await api.GET('/api/agents/{id}/history', { params: { path: { id: agentId } } })),
  });
  const arrow = (from: string | null, to: string | null) => (from === to ? (to ?? '-') : `${from ?? '-'} → ${to ?? '-'}`);
  const columns: TableProps<AgentHistory>['columns'] = [
    { key: 'date', dataIndex: 'changeDate', title: t('agent.changeDate') },
    { key: 'type', dataIndex: 'changeType', title: t('agent.moveType'), render: (v: string, row) => <StatusTag status={row.changeTypeName ?? v} /> },
    { key: 'org', title: t('org.organization'), render: (_: unknown, row) => arrow(row.fromOrgName, row.toOrgName) },
    { key: 'grade', title: t('org.grade'), render: (_: unknown, row) => arrow(row.fromGradeName, row.toGradeName) },
    { key: 'reason', dataIndex: 'changeReason', title: t('agent.reason'), render: (v: string | null) => v ?? '-' },
  ];
  return (
    <Card size="small" title={<h2 className="card-title">{t('agent.history')}</h2>}>
      {history.error ? <ErrorNotice error={history.error} /> : null}
      <Table<AgentHistory>
        className="agent-history"
        rowKey="historyId"
        size="small"
        loading={history.isFetching}
        columns={columns}
        dataSource={history.data ?? []}
        pagination={false}
      />
    </Card>
  );
}

function AgentDetail({ resource, page, agentId }: { resource: ResourceMeta; page: PageMenu; agentId: number }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const can = useGrant('ORG_AGENT');
  const record = useRecord(resource, String(agentId));
  const [dialog, setDialog] = useState<'move' | 'retire' | null>(null);

  if (record.isLoading) return <Loading />;
  if (record.error) return <ErrorNotice error={record.error} />;
  const row = record.data ?? {};
  const agent = {
    agentId,
    agentName: String(row.agentName ?? agentId),
    orgId: Number(row.orgId),
    gradeId: Number(row.gradeId),
  };
  const active = row.status !== 'LEAVE';
  const done = async (text: string) => {
    setDialog(null);
    void message.success(text);
    await queryClient.invalidateQueries({ queryKey: ['record', resource.path, String(agentId)] });
    await queryClient.invalidateQueries({ queryKey: ['agents'] });
    await queryClient.invalidateQueries({ queryKey: ['orgs'] });
    await queryClient.invalidateQueries({ queryKey: ['list', resource.path] });
  };

  return (
    <Space orientation="vertical" className="full-width">
      <Space className="detail-toolbar" wrap>
        <Button onClick={() => void navigate(-1)}>{t('common.back')}</Button>
        <span className="agent-heading">
          {agent.agentName} <StatusTag status={String(row.status ?? '')} />
        </span>
        {can('UPDATE') && (
          <Button icon={<EditOutlined aria-hidden />} onClick={() => void navigate(`/${page.path}/${agentId}/edit`)}>
            {t('common.edit')}
          </Button>
        )}
        {can('UPDATE') && active && (
          <>
            <Button type="primary" icon={<SwapOutlined aria-hidden />} onClick={() => setDialog('move')}>
              {t('agent.move')}
            </Button>
            <Button danger icon={<UserDeleteOutlined aria-hidden />} onClick={() => setDialog('retire')}>
              {t('agent.retire')}
            </Button>
          </>
        )}
      </Space>
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 2 }}
        items={resource.fields
          .filter((f) => f.kind !== 'version' && !HIDDEN.has(f.key))
          .map((f) => ({ key: f.key, label: fieldLabel(f), children: <FieldValue field={f} value={row[f.key]} row={row} /> }))}
      />
      <History agentId={agentId} />
      {dialog === 'move' && <AgentMoveDialog agent={agent} onCancel={() => setDialog(null)} onDone={() => void done(t('agent.moved'))} />}
      {dialog === 'retire' && <AgentRetireDialog agent={agent} onCancel={() => setDialog(null)} onDone={() => void done(t('agent.retired'))} />}
    </Space>
  );
}

/**
 * `/org/agents/{id}`: an agent with its organization/grade history, and the move and retire
 * workflows. Any other sub-path of the page (the generic forms) stays with the resource page.
 */
export default function AgentDetailPage() {
  const { agentId } = useParams();
  const page = useCurrentPage();
  const meta = useResourceMeta();
  if (!agentId || !/^\d+$/.test(agentId)) return <ResourcePage />;
  if (!page) return null;
  if (meta.isLoading) return <Loading />;
  if (meta.error) return <ErrorNotice error={meta.error} />;
  const resource = (meta.data ?? []).find((r) => r.path === AGENT_PATH);
  if (!resource) return <ResourcePage />;
  return (
    <>
      <PageTitle page={page} />
      <AgentDetail resource={resource} page={page} agentId={Number(agentId)} />
    </>
  );
}
