import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Descriptions, Empty, Row, Space, Table, Tag, Tree, Typography, type TableProps, type TreeDataNode } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client.js';
import { unwrap, type PageResponse } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { PageTitle } from '../../resources/resource-page.js';
import { PAGE_SIZES, useListState } from '../../resources/url-state.js';
import { StatusTag } from '../../shared/status-tag.js';
import { Loading } from '../../shell/app-layout.js';
import { useCurrentPage, useGrant } from '../../shell/menus.js';
import { findOrg, pathTo, subtreeCount, useOrgTree, type AgentRow, type OrgNode } from './org-api.js';

function treeData(nodes: OrgNode[], label: (n: OrgNode) => string): TreeDataNode[] {
  return nodes.map((node) => ({
    key: String(node.orgId),
    title: (
      <span className="org-node">
        <span className={node.isActive ? undefined : 'org-inactive'}>{node.orgName}</span>{' '}
        <Tag className="org-count" title={label(node)}>
          {subtreeCount(node)}
        </Tag>
      </span>
    ),
    children: treeData(node.children, label),
  }));
}

/** Keys of the first two levels: the tree opens on headquarters and branches. */
function topKeys(nodes: OrgNode[], depth = 0): string[] {
  if (depth >= 2) return [];
  return nodes.flatMap((n) => [String(n.orgId), ...topKeys(n.children, depth + 1)]);
}

function OrgAgents({ org }: { org: OrgNode }) {
  const { t } = useI18n();
  const state = useListState(['orgId']);
  const canAgents = useGrant('ORG_AGENT')('READ');
  const agents = useQuery({
    queryKey: ['agents', 'of-org', org.orgId, state.pageNum, state.pageSize],
    enabled: canAgents,
    placeholderData: (previous) => previous,
    queryFn: async () =>
      unwrap<PageResponse<AgentRow>>(
        await api.GET('/api/agents', { params: { query: { orgId: org.orgId, pageNum: state.pageNum, pageSize: state.pageSize } as never } }),
      ),
  });
  if (!canAgents) return null;
  const columns: TableProps<AgentRow>['columns'] = [
    { key: 'id', dataIndex: 'agentId', title: t('org.agentId'), render: (id: number) => <Link to={`/org/agents/${id}`}>{id}</Link> },
    { key: 'name', dataIndex: 'agentName', title: t('org.agentName') },
    { key: 'org', dataIndex: 'orgName', title: t('org.organization') },
    { key: 'grade', dataIndex: 'gradeName', title: t('org.grade') },
    { key: 'status', dataIndex: 'status', title: t('common.status'), render: (s: string) => <StatusTag status={s} /> },
    { key: 'join', dataIndex: 'joinDate', title: t('org.joinDate') },
  ];
  return (
    <Card size="small" title={<h2 className="card-title">{t('org.agentsOf', { name: org.orgName })}</h2>}>
      {agents.error ? <ErrorNotice error={agents.error} /> : null}
      <Typography.Paragraph>{t('common.total', { total: agents.data?.total ?? 0 })}</Typography.Paragraph>
      <Table<AgentRow>
        className="org-agents"
        rowKey="agentId"
        size="small"
        loading={agents.isFetching}
        columns={columns}
        dataSource={agents.data?.list ?? []}
        onChange={(p) => state.update({ pageNum: p.current ?? 1, pageSize: p.pageSize ?? 20 }, { keepPage: true })}
        pagination={{
          current: state.pageNum,
          pageSize: state.pageSize,
          total: agents.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
        }}
      />
    </Card>
  );
}

/**
 * The organization tree (ORG_TREE): every organization with its active agents (the node's own and
 * those below it); a selected node shows its details and its agents. Create and edit open the
 * generic organization form.
 */
export default function OrgTreePage() {
  const { t } = useI18n();
  const page = useCurrentPage();
  const can = useGrant('ORG_TREE');
  const navigate = useNavigate();
  const state = useListState(['orgId']);
  const tree = useOrgTree();
  const selectedId = state.query.orgId ? Number(state.query.orgId) : undefined;
  const nodes = tree.data ?? [];
  const selected = selectedId === undefined ? undefined : findOrg(nodes, selectedId);
  const [expanded, setExpanded] = useState<string[] | undefined>(undefined);
  const label = (n: OrgNode) => t('org.countLabel', { own: n.agentCount, total: subtreeCount(n) });
  const data = useMemo(() => treeData(nodes, label), [nodes, t]);
  const expandedKeys =
    expanded ?? [...new Set([...topKeys(nodes), ...(selectedId ? pathTo(nodes, selectedId).map((n) => String(n.orgId)) : [])])];

  return (
    <>
      {page && <PageTitle page={page} />}
      <Space className="list-toolbar">
        {can('CREATE') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/org/tree/new')}>
            {t('org.newOrg')}
          </Button>
        )}
      </Space>
      {tree.error ? <ErrorNotice error={tree.error} /> : null}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <Card size="small" title={<h2 className="card-title">{t('org.tree')}</h2>}>
            {tree.isLoading ? (
              <Loading />
            ) : nodes.length === 0 ? (
              <Empty />
            ) : (
              <Tree
                className="org-tree"
                treeData={data}
                expandedKeys={expandedKeys}
                onExpand={(keys) => setExpanded(keys.map(String))}
                selectedKeys={selectedId ? [String(selectedId)] : []}
                onSelect={(keys) => keys[0] !== undefined && state.update({ orgId: String(keys[0]) })}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={16}>
          {selected ? (
            <Space orientation="vertical" className="full-width">
              <Card
                size="small"
                title={<h2 className="card-title">{selected.orgName}</h2>}
                extra={
                  <Space>
                    <Link to={`/org/tree/${selected.orgId}`}>{t('common.detail')}</Link>
                    {can('UPDATE') && (
                      <Button size="small" icon={<EditOutlined />} onClick={() => void navigate(`/org/tree/${selected.orgId}/edit`)}>
                        {t('common.edit')}
                      </Button>
                    )}
                  </Space>
                }
              >
                <Descriptions
                  size="small"
                  column={{ xs: 1, md: 3 }}
                  items={[
                    { key: 'type', label: t('org.type'), children: selected.orgTypeName ?? selected.orgType },
                    { key: 'level', label: t('org.level'), children: selected.orgLevel },
                    { key: 'region', label: t('org.region'), children: selected.region ?? '-' },
                    { key: 'own', label: t('org.ownAgents'), children: selected.agentCount },
                    { key: 'total', label: t('org.allAgents'), children: subtreeCount(selected) },
                    { key: 'active', label: t('org.active'), children: selected.isActive ? t('common.yes') : t('common.no') },
                  ]}
                />
              </Card>
              <OrgAgents org={selected} />
            </Space>
          ) : (
            <Card size="small">
              <Typography.Text>{t('org.pick')}</Typography.Text>
            </Card>
          )}
        </Col>
      </Row>
    </>
  );
}
