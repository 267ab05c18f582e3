import { useQuery } from '@tanstack/react-query';
import { Card, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { formatMoney, formatMonth } from '../../shared/format.js';
import { compareSimulations, listSimulations, type CompareItem } from './simulation-api.js';
import { Diff } from './simulation-bits.js';

/** This simulation against another finished one of the same base month: gross per agent under each, and the difference. */
export function CompareCard({ simulationId, baseMonth }: { simulationId: number; baseMonth: string }) {
  const { t } = useI18n();
  const [other, setOther] = useState<number | undefined>();
  const candidates = useQuery({
    queryKey: ['simulations', 'list', { baseMonth, status: 'DONE', pageSize: 100 }],
    queryFn: () => listSimulations({ baseMonth, status: 'DONE', pageSize: 100, pageNum: 1, sortField: 'createdAt', sortOrder: 'DESC' }),
  });
  const options = (candidates.data?.list ?? []).filter((s) => s.id !== simulationId).map((s) => ({ value: s.id, label: s.name }));
  const compare = useQuery({
    queryKey: ['simulations', 'compare', simulationId, other],
    enabled: other !== undefined,
    queryFn: () => compareSimulations(simulationId, other!),
  });
  const won = (title: string) => t('common.moneyTitle', { title });
  const data = compare.data;
  return (
    <Card size="small" title={<h2 className="card-title">{t('sim.compare')}</h2>} className="list-toolbar sim-compare">
      <Typography.Paragraph type="secondary">{t('sim.compareIntro', { month: formatMonth(baseMonth) })}</Typography.Paragraph>
      <Select
        className="sim-compare-select"
        value={other}
        onChange={setOther}
        allowClear
        loading={candidates.isFetching}
        options={options}
        placeholder={t('sim.comparePick')}
        aria-label={t('sim.comparePick')}
        notFoundContent={t('sim.compareNone')}
      />
      {compare.error ? <ErrorNotice error={compare.error} /> : null}
      {data && (
        <Table<CompareItem>
          size="small"
          rowKey="agentId"
          className="sim-compare-table"
          loading={compare.isFetching}
          scroll={{ x: 'max-content' }}
          dataSource={data.items}
          pagination={{ pageSize: 20, showSizeChanger: false }}
          columns={[
            { key: 'agentName', title: t('sim.agent'), render: (_: unknown, r) => r.agentName ?? r.agentId },
            { key: 'grossA', title: won(t('sim.grossThis')), align: 'right', render: (_: unknown, r) => <span className="money">{formatMoney(r.grossA)}</span> },
            { key: 'grossB', title: won(t('sim.grossOther')), align: 'right', render: (_: unknown, r) => <span className="money">{formatMoney(r.grossB)}</span> },
            { key: 'diff', title: won(t('sim.diff')), align: 'right', render: (_: unknown, r) => <Diff value={r.diff} /> },
          ]}
          summary={() => (
            <Table.Summary.Row className="sim-compare-total">
              <Table.Summary.Cell index={0}>{t('sim.total')}</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                <span className="money">{formatMoney(data.totals.grossA)}</span>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                <span className="money">{formatMoney(data.totals.grossB)}</span>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                <Diff value={data.totals.diff} />
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )}
        />
      )}
    </Card>
  );
}
