import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Collapse, Descriptions, Table, Tag } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';
import { StatusTag } from '../shared/status-tag.js';
import { ErrorNotice } from '../resources/error-notice.js';
import { formatDecimal } from '../resources/field-value.js';
import { Loading } from '../shell/app-layout.js';
import type { SettleExplain } from './settle-api.js';

type Section = keyof SettleExplain['sections'];
const SECTIONS: { key: Section; title: string }[] = [
  { key: 'recruit', title: 'Recruit' },
  { key: 'maintain', title: 'Maintain' },
  { key: 'override', title: 'Override received' },
  { key: 'exceptionPlus', title: 'Exceptions (plus)' },
  { key: 'exceptionMinus', title: 'Exceptions (minus)' },
  { key: 'chargeback', title: 'Chargebacks' },
  { key: 'excluded', title: 'Not counted' },
];
const MONEY = /amount|premium|total|gross|net|tax/i;

function columnsOf(rows: Record<string, unknown>[]) {
  const keys = Object.keys(rows[0] ?? {}).filter((k) => k !== 'basis' && k !== 'successionFrom');
  return keys.map((key) => ({
    key,
    dataIndex: key,
    title: key,
    align: MONEY.test(key) ? ('right' as const) : undefined,
    render: (v: unknown) => (v === null || v === undefined ? '-' : typeof v === 'boolean' ? String(v) : MONEY.test(key) ? formatDecimal(String(v)) : String(v)),
  }));
}

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

  const stored = e.stored as Record<string, string | null | undefined>;
  const totals = Object.entries(e.totals as Record<string, string | null | undefined>).map(([key, value]) => ({
    key,
    label: key,
    children: (
      <span className="money">
        {value == null ? '-' : formatDecimal(value)}
        {stored[key] != null && stored[key] !== value && <Tag className="status-tag status-bad">stored {formatDecimal(stored[key])}</Tag>}
      </span>
    ),
  }));

  return (
    <>
      <h1 className="page-title">
        {t('explain.title')}: {e.agentName ?? e.agentId} · {e.settleMonth} <StatusTag status={e.status} />
      </h1>
      <Button onClick={() => void navigate(-1)} className="list-toolbar">
        {t('common.back')}
      </Button>
      {e.reconciles ? (
        <Alert type="success" showIcon title="The lines below add up to the stored settlement." className="list-toolbar" />
      ) : (
        <Alert
          type="warning"
          showIcon
          title="The lines do not add up to the stored settlement"
          description={e.mismatches.map((m) => `${m.field}: explained ${m.explained}, stored ${m.stored}`).join('; ')}
          className="list-toolbar"
        />
      )}
      <Card size="small" title={<h2 className="card-title">{e.formula}</h2>} className="list-toolbar">
        <Descriptions size="small" bordered column={{ xs: 1, md: 3 }} items={totals} />
      </Card>
      <Collapse
        defaultActiveKey={SECTIONS.filter((s) => e.sections[s.key].length > 0).map((s) => s.key)}
        items={SECTIONS.map((s) => {
          const rows = (e.sections[s.key] as ReadonlyArray<object>).map((r): Record<string, unknown> => ({ ...r }));
          return {
            key: s.key,
            label: `${s.title} (${rows.length})`,
            children: rows.length ? (
              <Table size="small" rowKey={(_r, i) => String(i)} columns={columnsOf(rows)} dataSource={rows} pagination={false} scroll={{ x: 'max-content' }} />
            ) : (
              '-'
            ),
          };
        })}
      />
    </>
  );
}
