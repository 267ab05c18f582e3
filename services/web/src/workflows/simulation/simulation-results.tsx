import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Input, Row, Segmented, Statistic, Table, Typography, type TableProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { RefSelect } from '../../resources/ref-select.js';
import { PAGE_SIZES, useListState } from '../../resources/url-state.js';
import { formatCount, formatMoney } from '../../shared/format.js';
import { ScrollRegion } from '../../shared/scroll-region.js';
import { listAgentResults, getSummary, orgResults, type AgentResult, type ChangeMoved, type Direction, type OrgResult, type SimulationChange } from './simulation-api.js';
import { Diff, DiffPct } from './simulation-bits.js';
import { orgTree, serverSort, type OrgNode } from './simulation-model.js';
import { SideBySideExplain } from './side-by-side-explain.js';
import { ChangeText } from './change-text.js';
import { Loading } from '../../shell/app-layout.js';
import { useRuleTableName } from './rule-change-card.js';

// The chart library is fetched when a run's results are shown, not with the page.
const DiffHistogram = lazy(() => import('./diff-histogram.js'));

const EXTRA_KEYS = ['direction', 'orgId', 'keyword'] as const;
const AGENT_SORTS = new Set(['grossDiff', 'grossDiffPct', 'agentName', 'grossBefore', 'grossAfter', 'netDiff']);
const ORG_FIELD = { key: 'orgId', kind: 'ref', ref: { resource: 'Organization', picker: 'tree' as const } };

/** A money column: the unit in the header, right-aligned, grouped. */
function money<T>(key: keyof T & string, title: string, sorter = false): NonNullable<TableProps<T>['columns']>[number] {
  return { key, dataIndex: key, title, align: 'right', sorter, className: 'nowrap', render: (v: string) => <span className="money">{formatMoney(v)}</span> };
}

/** Totals, the histogram, the amount each change moved, top gainers and losers, every agent and the org roll-up. */
export function SimulationResults({ simulationId, changes }: { simulationId: number; changes: SimulationChange[] }) {
  const { t } = useI18n();
  const tableName = useRuleTableName();
  const [explaining, setExplaining] = useState<{ agentId: number; name: string } | null>(null);
  const summary = useQuery({ queryKey: ['simulations', simulationId, 'summary'], queryFn: () => getSummary(simulationId) });
  const won = (title: string) => t('common.moneyTitle', { title });

  const agentLink = (row: AgentResult) => (
    <Button type="link" size="small" className="sim-agent-link" onClick={() => setExplaining({ agentId: row.agentId, name: row.agentName ?? String(row.agentId) })}>
      {row.agentName ?? row.agentId}
    </Button>
  );
  const topColumns: TableProps<AgentResult>['columns'] = [
    { key: 'agentName', title: t('sim.agent'), render: (_: unknown, r) => agentLink(r) },
    { key: 'orgName', dataIndex: 'orgName', title: t('sim.org'), className: 'nowrap' },
    { key: 'grossDiff', title: won(t('sim.diff')), align: 'right', className: 'nowrap', render: (_: unknown, r) => <Diff value={r.grossDiff} /> },
    { key: 'grossDiffPct', title: t('sim.diffPct'), align: 'right', render: (_: unknown, r) => <DiffPct value={r.grossDiffPct} /> },
  ];

  if (summary.error) return <ErrorNotice error={summary.error} />;
  const s = summary.data;
  return (
    <section className="sim-results" aria-label={t('sim.results')}>
      {s && (
        <>
          <Row gutter={[12, 12]} className="list-toolbar">
            <Col xs={24} md={8}>
              <Card size="small" title={<h2 className="card-title">{t('sim.before')}</h2>} className="sim-total">
                <Statistic title={won(t('sim.gross'))} value={formatMoney(s.totals.grossBefore)} />
                <Statistic title={won(t('sim.net'))} value={formatMoney(s.totals.netBefore)} />
              </Card>
            </Col>
            <Col xs={24} md={8}>
              <Card size="small" title={<h2 className="card-title">{t('sim.after')}</h2>} className="sim-total">
                <Statistic title={won(t('sim.gross'))} value={formatMoney(s.totals.grossAfter)} />
                <Statistic title={won(t('sim.net'))} value={formatMoney(s.totals.netAfter)} />
              </Card>
            </Col>
            <Col xs={24} md={8}>
              <Card size="small" title={<h2 className="card-title">{t('sim.difference')}</h2>} className="sim-total">
                <Statistic title={won(t('sim.gross'))} valueRender={() => <Diff value={s.totals.grossDiff} />} />
                <Statistic title={won(t('sim.net'))} valueRender={() => <Diff value={s.totals.netDiff} />} />
              </Card>
            </Col>
            <Col span={24}>
              <Card size="small" className="sim-total">
                <div className="sim-counts">
                  <Statistic title={t('sim.agentCount')} value={formatCount(s.totals.agentCount)} />
                  <Statistic title={t('sim.agentsUp')} value={formatCount(s.totals.agentsUp)} valueStyle={{ color: '#237804' }} />
                  <Statistic title={t('sim.agentsDown')} value={formatCount(s.totals.agentsDown)} valueStyle={{ color: '#cf1322' }} />
                  <Statistic title={t('sim.agentsSame')} value={formatCount(s.totals.agentsSame)} />
                </div>
              </Card>
            </Col>
          </Row>
          <Row gutter={[12, 12]} className="list-toolbar">
            <Col xs={24} lg={12}>
              <Card size="small" title={<h2 className="card-title">{t('sim.histogram')}</h2>}>
                <Suspense fallback={<Loading />}>
                  <DiffHistogram title={t('sim.histogram')} buckets={s.histogram} countName={t('sim.agentCount')} />
                </Suspense>
              </Card>
            </Col>
            <Col xs={24} lg={12}>
              <Card size="small" title={<h2 className="card-title">{t('sim.byChange')}</h2>}>
                <ScrollRegion label={t('sim.byChange')}>
                  <Table<ChangeMoved>
                    size="small"
                    rowKey="changeId"
                    pagination={false}
                    dataSource={s.changes}
                    columns={[
                      { key: 'table', title: t('sim.ruleTable'), className: 'nowrap', render: (_: unknown, r) => tableName(r.ruleTable) },
                      { key: 'action', title: t('sim.action'), className: 'nowrap', render: (_: unknown, r) => t(`sim.action.${r.action}`) },
                      // before the change's long text, so that the figure is in sight on a half-width card
                      { key: 'amountMoved', title: won(t('sim.amountMoved')), align: 'right', className: 'nowrap', render: (_: unknown, r) => <Diff value={r.amountMoved} /> },
                      {
                        key: 'label',
                        title: t('sim.changeLabel'),
                        render: (_: unknown, r) => {
                          const full = changes.find((c) => c.changeId === r.changeId);
                          return full ? <ChangeText change={full} /> : r.label;
                        },
                      },
                    ]}
                  />
                </ScrollRegion>
              </Card>
            </Col>
            <Col xs={24} lg={12}>
              <Card size="small" title={<h2 className="card-title">{t('sim.topGainers')}</h2>}>
                <Table<AgentResult> size="small" rowKey="agentId" pagination={false} scroll={{ x: 'max-content' }} dataSource={s.topGainers} columns={topColumns} />
              </Card>
            </Col>
            <Col xs={24} lg={12}>
              <Card size="small" title={<h2 className="card-title">{t('sim.topLosers')}</h2>}>
                <Table<AgentResult> size="small" rowKey="agentId" pagination={false} scroll={{ x: 'max-content' }} dataSource={s.topLosers} columns={topColumns} />
              </Card>
            </Col>
          </Row>
        </>
      )}
      <AgentResults simulationId={simulationId} onExplain={(agentId, name) => setExplaining({ agentId, name })} />
      <OrgRollup simulationId={simulationId} />
      {explaining && (
        <SideBySideExplain simulationId={simulationId} agentId={explaining.agentId} agentName={explaining.name} onClose={() => setExplaining(null)} />
      )}
    </section>
  );
}

/** Every agent in scope, paged and sorted on the server; filters and page stay in the URL. */
function AgentResults({ simulationId, onExplain }: { simulationId: number; onExplain(agentId: number, name: string): void }) {
  const { t } = useI18n();
  const state = useListState(EXTRA_KEYS);
  const sortField = state.sortField && AGENT_SORTS.has(state.sortField) ? state.sortField : undefined;
  const query: Record<string, string | number> = { pageNum: state.pageNum, pageSize: state.pageSize };
  const sort = serverSort(sortField, state.sortOrder);
  if (sort) query.sort = sort;
  for (const key of EXTRA_KEYS) if (state.query[key]) query[key] = state.query[key]!;
  const list = useQuery({
    queryKey: ['simulations', simulationId, 'agents', query],
    placeholderData: (previous) => previous,
    queryFn: () => listAgentResults(simulationId, query),
  });
  const sorted = (key: string) => (sortField === key ? (state.sortOrder === 'ASC' ? ('ascend' as const) : ('descend' as const)) : null);
  const won = (title: string) => t('common.moneyTitle', { title });
  const columns: TableProps<AgentResult>['columns'] = [
    {
      key: 'agentName',
      title: t('sim.agent'),
      sorter: true,
      sortOrder: sorted('agentName'),
      render: (_: unknown, r) => (
        <Button type="link" size="small" className="sim-agent-link" onClick={() => onExplain(r.agentId, r.agentName ?? String(r.agentId))}>
          {r.agentName ?? r.agentId}
          {r.agentCode ? <span className="sim-agent-code"> ({r.agentCode})</span> : null}
        </Button>
      ),
    },
    { key: 'orgName', dataIndex: 'orgName', title: t('sim.org'), className: 'nowrap' },
    { ...money<AgentResult>('grossBefore', won(t('sim.grossBefore')), true), sortOrder: sorted('grossBefore') },
    { ...money<AgentResult>('grossAfter', won(t('sim.grossAfter')), true), sortOrder: sorted('grossAfter') },
    { key: 'grossDiff', title: won(t('sim.diff')), align: 'right', sorter: true, sortOrder: sorted('grossDiff'), className: 'nowrap', render: (_: unknown, r) => <Diff value={r.grossDiff} /> },
    { key: 'grossDiffPct', title: t('sim.diffPct'), align: 'right', sorter: true, sortOrder: sorted('grossDiffPct'), render: (_: unknown, r) => <DiffPct value={r.grossDiffPct} /> },
    money<AgentResult>('netBefore', won(t('sim.netBefore'))),
    money<AgentResult>('netAfter', won(t('sim.netAfter'))),
    { key: 'netDiff', title: won(t('sim.netDiff')), align: 'right', sorter: true, sortOrder: sorted('netDiff'), className: 'nowrap', render: (_: unknown, r) => <Diff value={r.netDiff} /> },
  ];
  return (
    <Card size="small" title={<h2 className="card-title">{t('sim.agents')}</h2>} className="list-toolbar sim-agents">
      <div className="sim-filters">
        <Segmented<string>
          value={state.query.direction ?? 'all'}
          onChange={(v) => state.update({ direction: v === 'all' ? undefined : (v as Direction) })}
          options={[
            { value: 'all', label: t('common.all') },
            { value: 'up', label: t('sim.up') },
            { value: 'down', label: t('sim.down') },
            { value: 'same', label: t('sim.same') },
          ]}
          aria-label={t('sim.direction')}
        />
        <RefSelect
          field={ORG_FIELD}
          value={state.query.orgId ? Number(state.query.orgId) : undefined}
          onChange={(v) => state.update({ orgId: v == null ? undefined : String(v) })}
          className="sim-org-filter"
          aria-label={t('sim.org')}
        />
        <Input.Search allowClear defaultValue={state.query.keyword} placeholder={t('sim.agentSearch')} aria-label={t('sim.agentSearch')} onSearch={(v) => state.update({ keyword: v })} className="sim-keyword" />
      </div>
      {list.error ? <ErrorNotice error={list.error} /> : null}
      <Table<AgentResult>
        size="small"
        rowKey="agentId"
        className="sim-agent-table"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.list ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: state.pageNum,
          pageSize: state.pageSize,
          total: list.data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showTotal: (total) => t('common.total', { total: formatCount(total) }),
        }}
        onChange={(p, _f, sorter, extra) => {
          if (extra.action === 'paginate') {
            state.update({ pageNum: p.current ?? 1, pageSize: p.pageSize ?? state.pageSize }, { keepPage: true });
            return;
          }
          const one = Array.isArray(sorter) ? sorter[0] : sorter;
          const field = one?.order && typeof one.columnKey === 'string' && AGENT_SORTS.has(one.columnKey) ? one.columnKey : undefined;
          state.update({ sortField: field, sortOrder: field ? (one?.order === 'ascend' ? 'ASC' : 'DESC') : undefined });
        }}
      />
    </Card>
  );
}

/** Each organization's figures with its whole subtree, as the tree. */
function OrgRollup({ simulationId }: { simulationId: number }) {
  const { t } = useI18n();
  const orgs = useQuery({ queryKey: ['simulations', simulationId, 'orgs'], queryFn: () => orgResults(simulationId) });
  const tree = orgTree(orgs.data ?? []);
  const won = (title: string) => t('common.moneyTitle', { title });
  return (
    <Card size="small" title={<h2 className="card-title">{t('sim.orgRollup')}</h2>} className="list-toolbar sim-orgs">
      <Typography.Paragraph type="secondary">{t('sim.orgRollupIntro')}</Typography.Paragraph>
      {orgs.error ? <ErrorNotice error={orgs.error} /> : null}
      <Table<OrgNode>
        key={orgs.data ? 'loaded' : 'loading'}
        size="small"
        rowKey="orgId"
        loading={orgs.isFetching}
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={tree}
        expandable={{ defaultExpandAllRows: true }}
        columns={[
          { key: 'orgName', dataIndex: 'orgName', title: t('sim.org'), className: 'nowrap' },
          { key: 'agentCount', dataIndex: 'agentCount', title: t('sim.agentCount'), align: 'right', render: (v: number) => formatCount(v) },
          money<OrgResult>('grossBefore', won(t('sim.grossBefore'))),
          money<OrgResult>('grossAfter', won(t('sim.grossAfter'))),
          { key: 'grossDiff', title: won(t('sim.diff')), align: 'right', className: 'nowrap', render: (_: unknown, r) => <Diff value={r.grossDiff} /> },
          { key: 'netDiff', title: won(t('sim.netDiff')), align: 'right', className: 'nowrap', render: (_: unknown, r) => <Diff value={r.netDiff} /> },
        ]}
      />
    </Card>
  );
}
