import { useQuery } from '@tanstack/react-query';
import { Alert, Col, Drawer, Grid, Row, Table, Typography } from 'antd';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { kindValue } from '../../resources/field-value.js';
import { formatCount, formatMoney, formatRate } from '../../shared/format.js';
import { ScrollRegion } from '../../shared/scroll-region.js';
import { Loading } from '../../shell/app-layout.js';
import { lineColumns, SECTION_TITLES, TOTAL_TITLES, type LineKind } from '../explain-columns.js';
import { agentExplain, type Explain } from './simulation-api.js';
import { Diff } from './simulation-bits.js';
import { changedKeys, changedLines, totalDiff } from './explain-diff.js';

type Line = Record<string, unknown>;

/**
 * One agent's month under the real rules and under the simulation, next to each other (stacked on a phone):
 * the totals of both with their difference, then each section's lines in the explain page's columns,
 * lines that differ from the other side highlighted.
 */
export function SideBySideExplain({ simulationId, agentId, agentName, onClose }: { simulationId: number; agentId: number; agentName: string; onClose(): void }) {
  const { t } = useI18n();
  const phone = Grid.useBreakpoint().md === false;
  const explain = useQuery({
    queryKey: ['simulations', simulationId, 'explain', agentId],
    queryFn: () => agentExplain(simulationId, agentId),
  });
  const real = explain.data?.real ?? null;
  const sim = explain.data?.simulated ?? null;

  const totals = Object.entries(TOTAL_TITLES)
    .filter(([key]) => real?.totals[key] !== undefined || sim?.totals[key] !== undefined)
    .map(([key, title]) => ({ key, title, real: real?.totals[key] ?? null, sim: sim?.totals[key] ?? null }));

  return (
    <Drawer open title={t('sim.explainTitle', { name: agentName })} size={phone ? '100%' : 1200} onClose={onClose} className="sim-explain">
      {explain.isLoading && <Loading />}
      {explain.error ? <ErrorNotice error={explain.error} /> : null}
      {explain.data && (
        <>
          {!real && <Alert type="info" showIcon className="list-toolbar" title={t('sim.noRealMonth')} />}
          <ScrollRegion label={t('sim.figure')}>
            <Table
              size="small"
              className="sim-explain-totals"
              rowKey="key"
              pagination={false}
              rowClassName={(r) => (totalDiff(r.real, r.sim) ? 'sim-changed' : '')}
              dataSource={totals}
              columns={[
                { key: 'title', title: t('sim.figure'), render: (_: unknown, r) => (r.key === 'taxRate' ? t(r.title) : t('common.moneyTitle', { title: t(r.title) })) },
                { key: 'real', title: t('sim.real'), align: 'right', render: (_: unknown, r) => <span className="money">{r.key === 'taxRate' ? formatRate(r.real) : formatMoney(r.real)}</span> },
                { key: 'sim', title: t('sim.simulated'), align: 'right', render: (_: unknown, r) => <span className="money">{r.key === 'taxRate' ? formatRate(r.sim) : formatMoney(r.sim)}</span> },
                { key: 'diff', title: t('sim.diff'), align: 'right', render: (_: unknown, r) => (r.key === 'taxRate' ? '' : <Diff value={totalDiff(r.real, r.sim) ?? '0.00'} />) },
              ]}
            />
          </ScrollRegion>
          {Object.entries(SECTION_TITLES).map(([key, title]) => {
            const left = (real?.sections[key] ?? []) as Line[];
            const right = (sim?.sections[key] ?? []) as Line[];
            if (left.length === 0 && right.length === 0) return null;
            const changedRight = changedLines(right, left);
            const changedLeft = changedLines(left, right);
            const first = changedKeys(left, right);
            return (
              <section key={key} className="sim-explain-section" aria-label={t(title)}>
                <h3 className="card-title">{t(title)}</h3>
                <Row gutter={[16, 8]}>
                  <Col xs={24} xl={12}>
                    <Typography.Text strong>{t('sim.realLines', { count: formatCount(left.length) })}</Typography.Text>
                    <Lines rows={left} changed={changedLeft} first={first} label={`${t(title)} · ${t('sim.real')}`} />
                  </Col>
                  <Col xs={24} xl={12}>
                    <Typography.Text strong>{t('sim.simulatedLines', { count: formatCount(right.length) })}</Typography.Text>
                    <Lines rows={right} changed={changedRight} first={first} label={`${t(title)} · ${t('sim.simulated')}`} />
                  </Col>
                </Row>
              </section>
            );
          })}
        </>
      )}
    </Drawer>
  );
}

function Lines({ rows, changed, first, label }: { rows: Line[]; changed: Set<number>; first: Set<string>; label: string }) {
  const { t, statusName } = useI18n();
  if (rows.length === 0) return <div className="empty-value">-</div>;
  const rank = (key: string) => (key === 'policyNo' ? 0 : first.has(key) ? 1 : 2);
  const cell = (kind: LineKind, value: unknown) => {
    if (value === null || value === undefined || value === '') return '-';
    if (kind === 'status') return statusName(String(value));
    if (kind === 'count') return formatCount(value as number);
    return kindValue(kind, value, t);
  };
  return (
    <ScrollRegion label={label}>
      <Table<Line>
        size="small"
        rowKey={(_r, i) => String(i)}
        pagination={false}
        rowClassName={(_r, i) => (changed.has(i) ? 'sim-changed' : '')}
        dataSource={rows}
        // The policy, then the columns that differ between the two sides, then the rest.
        columns={[...lineColumns(rows)]
          .sort((a, b) => rank(a.key) - rank(b.key))
          .map((c) => ({
          key: c.key,
          dataIndex: c.key,
          title: c.kind === 'money' ? t('common.moneyTitle', { title: t(c.label) }) : t(c.label),
          align: c.kind === 'money' || c.kind === 'rate' ? ('right' as const) : undefined,
          className: first.has(c.key) ? 'sim-changed-col' : undefined,
          render: (v: unknown) => cell(c.kind, v),
        }))}
      />
    </ScrollRegion>
  );
}

export type { Explain };
