import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Collapse, Descriptions, Table, Tag } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';
import { formatCount, formatMoney, formatMonth, formatRate } from '../shared/format.js';
import { StatusTag } from '../shared/status-tag.js';
import { ScrollRegion } from '../shared/scroll-region.js';
import { ErrorNotice } from '../resources/error-notice.js';
import { kindValue } from '../resources/field-value.js';
import { Loading } from '../shell/app-layout.js';
import { lineColumns, SECTION_TITLES, TOTAL_TITLES, type LineKind } from './explain-columns.js';
import type { SettleExplain } from './settle-api.js';

type Line = Record<string, unknown>;

/** One agent's month line by line: every ledger row behind each total, and whether it adds up. */
export default function ExplainPage() {
  const { t } = useI18n();
  const { settleId } = useParams();
  const navigate = useNavigate();
  const id = Number(settleId);
  const explain = useQuery({
    queryKey: ['settle', 'explain', id],
    enabled: Number.isInteger(id) && id > 0,
    queryFn: async () => unwrap<SettleExplain>(await api.GET('/api/settle/{id}/explain', { params: { path: { id } } })),
  });
  if (explain.isLoading) return <Loading />;
  if (explain.error) return <ErrorNotice error={explain.error} />;
  const e = explain.data;
  if (!e) return null;

  const cell = (kind: LineKind, key: string, value: unknown, row: Line) => {
    if (value === null || value === undefined || value === '') return '-';
    switch (kind) {
      case 'status':
        return <StatusTag status={String(value)} />;
      case 'count':
        return key === 'installmentSeq' && row.installmentTotal != null
          ? t('explain.installmentOf', { seq: String(value), total: String(row.installmentTotal) })
          : formatCount(value as number);
      default:
        return kindValue(kind, value, t);
    }
  };

  const stored = e.stored as Record<string, string | null | undefined>;
  const totalsOf = e.totals as Record<string, string | null | undefined>;
  const totals = Object.entries(TOTAL_TITLES)
    .filter(([key]) => totalsOf[key] !== undefined)
    .map(([key, title]) => {
      const value = totalsOf[key];
      const isRate = key === 'taxRate';
      return {
        key,
        label: isRate ? t(title) : t('common.moneyTitle', { title: t(title) }),
        children: (
          <span className="money">
            {value == null ? '-' : isRate ? formatRate(value) : formatMoney(value)}
            {!isRate && stored[key] != null && stored[key] !== value && (
              <Tag className="status-tag status-bad">{t('explain.stored', { amount: formatMoney(stored[key]) })}</Tag>
            )}
          </span>
        ),
      };
    });
  const sections = e.sections as Record<string, ReadonlyArray<object> | undefined>;
  const shown = Object.entries(SECTION_TITLES).filter(([key]) => sections[key] !== undefined);
  const mismatch = (field: string) => {
    const title = TOTAL_TITLES[field];
    return title ? t(title) : field;
  };

  return (
    <>
      <h1 className="page-title">
        {t('explain.title')}: {e.agentName ?? e.agentId} · {formatMonth(e.settleMonth)} <StatusTag status={e.status} />
      </h1>
      <Button onClick={() => void navigate(-1)} className="list-toolbar">
        {t('common.back')}
      </Button>
      {e.reconciles ? (
        <Alert type="success" showIcon title={t('explain.adds')} className="list-toolbar" />
      ) : (
        <Alert
          type="warning"
          showIcon
          title={t('explain.notAdds')}
          description={e.mismatches
            .map((m) => t('explain.mismatch', { field: mismatch(m.field), explained: formatMoney(m.explained), stored: formatMoney(m.stored) }))
            .join('; ')}
          className="list-toolbar"
        />
      )}
      <Card size="small" title={<h2 className="card-title">{t('explain.totals')}</h2>} className="list-toolbar">
        <p className="explain-formula">{t('explain.formula')}</p>
        <Descriptions size="small" bordered column={{ xs: 1, md: 3 }} items={totals} />
      </Card>
      <Collapse
        defaultActiveKey={shown.filter(([key]) => (sections[key]?.length ?? 0) > 0).map(([key]) => key)}
        items={shown.map(([key, title]) => {
          const rows = (sections[key] ?? []).map((r): Line => ({ ...r }));
          return {
            key,
            label: t('explain.lineCount', { title: t(title), count: rows.length }),
            children: rows.length ? (
              <ScrollRegion label={t(title)}>
                <Table<Line>
                  size="small"
                  rowKey={(_r, i) => String(i)}
                  columns={lineColumns(rows).map((c) => ({
                    key: c.key,
                    dataIndex: c.key,
                    title: c.kind === 'money' ? t('common.moneyTitle', { title: t(c.label) }) : t(c.label),
                    align: c.kind === 'money' || c.kind === 'rate' ? ('right' as const) : undefined,
                    render: (v: unknown, row: Line) => cell(c.kind, c.key, v, row),
                  }))}
                  dataSource={rows}
                  pagination={false}
                />
              </ScrollRegion>
            ) : (
              '-'
            ),
          };
        })}
      />
    </>
  );
}
