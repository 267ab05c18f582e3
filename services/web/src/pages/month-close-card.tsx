import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Row, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api/client.js';
import { unwrap, type PageResponse } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';
import type { MessageKey } from '../i18n/messages.js';
import { formatMonth, formatTimestamp } from '../shared/format.js';
import { MonthInput } from '../shared/month-input.js';
import { StatusTag } from '../shared/status-tag.js';
import { useMyMenus } from '../shell/menus.js';
import { closeSteps, type CloseStep, type MonthFacts } from './month-close.js';

interface RunRow {
  jobLogId: number;
  status: string;
  startedAt: string | null;
}

/** The previous calendar month in Seoul, as `YYYYMM`: the month an agency usually closes. */
function lastMonth(): string {
  const now = new Date(Date.now() + 9 * 3600_000);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth(); // 0-based: the previous month's number
  return m === 0 ? `${y - 1}12` : `${y}${String(m).padStart(2, '0')}`;
}

const STEP_TITLE: Record<CloseStep['key'], MessageKey> = {
  received: 'close.received',
  run: 'close.run',
  review: 'close.review',
  confirm: 'close.confirm',
  payments: 'close.payments',
  statements: 'close.statements',
  periodClose: 'close.periodClose',
  kpi: 'close.kpi',
};
const STEP_ACTION: Record<CloseStep['key'], { label: MessageKey; path: (m: string) => string; menu: string }> = {
  received: { label: 'close.receiveAction', path: (m) => `/receive/data?settleMonth=${m}`, menu: 'RECEIVE_DATA' },
  run: { label: 'close.runAction', path: (m) => `/settle/batch?settleMonth=${m}`, menu: 'BATCH_RUN' },
  review: { label: 'close.reviewAction', path: (m) => `/settle?settleMonth=${m}&status=HOLD`, menu: 'SETTLE_LIST' },
  confirm: { label: 'close.confirmAction', path: (m) => `/settle?settleMonth=${m}&status=CALCULATED`, menu: 'SETTLE_LIST' },
  payments: { label: 'close.payAction', path: (m) => `/payments?settleMonth=${m}`, menu: 'PAYMENT' },
  statements: { label: 'close.statementAction', path: (m) => `/payments/statements?settleMonth=${m}`, menu: 'STATEMENT' },
  periodClose: { label: 'close.closeAction', path: () => '/settle/period-close', menu: 'PERIOD_CLOSE' },
  kpi: { label: 'close.kpiAction', path: () => '/kpi/monthly', menu: 'KPI_MONTHLY' },
};
const STATE_TAG = { done: 'COMPLETED', ready: 'PENDING', waiting: 'HOLD' } as const;
const STATE_WORD: Record<CloseStep['state'], MessageKey> = { done: 'close.done', ready: 'close.ready', waiting: 'close.waiting' };

/** The operator's home: where the month stands, each step with its action, disabled with the reason. */
export function MonthCloseCard() {
  const { t } = useI18n();
  const { menus } = useMyMenus();
  const navigate = useNavigate();
  const canReceive = menus?.can('RECEIVE_DATA', 'READ') ?? false;
  const canRuns = menus?.can('BATCH_RUN', 'READ') ?? false;
  // The month of the latest run until the operator picks another; else last calendar month.
  const latest = useQuery({
    queryKey: ['batch', 'runs', 'latest'],
    enabled: canRuns,
    staleTime: 0,
    queryFn: async () =>
      unwrap<PageResponse<RunRow & { settleMonth: string }>>(
        await api.GET('/api/batch/settlement/runs', { params: { query: { pageSize: 1 } as never } }),
      ),
  });
  const [chosen, setMonth] = useState<string | undefined>(undefined);
  const month = chosen ?? latest.data?.list[0]?.settleMonth ?? lastMonth();

  const receive = useQuery({
    queryKey: ['receive', 'status', month],
    enabled: canReceive,
    staleTime: 0,
    queryFn: async () => unwrap<{ expectedCount: number; receivedCount: number; carriers: { openErrorCount: number }[] }>(await api.GET('/api/receive/status', { params: { query: { settleMonth: month } } })),
  });
  const runs = useQuery({
    queryKey: ['batch', 'runs', 'close', month],
    enabled: canRuns,
    staleTime: 0,
    queryFn: async () =>
      unwrap<PageResponse<RunRow>>(await api.GET('/api/batch/settlement/runs', { params: { query: { settleMonth: month, pageSize: 1 } as never } })),
  });
  const summary = useQuery({
    queryKey: ['settle', 'summary', month],
    // Where the month stands is read afresh on every visit (the app keeps other answers 30 s).
    staleTime: 0,
    queryFn: async () =>
      unwrap<{ count: number; byStatus: { status: string; count: number }[] }>(await api.GET('/api/settle/summary', { params: { query: { settleMonth: month } } })),
  });

  const by = (status: string) => summary.data?.byStatus.find((b) => b.status === status)?.count ?? 0;
  const run = runs.data?.list[0];
  const facts: MonthFacts = {
    expectedCarriers: receive.data?.expectedCount ?? 0,
    receivedCarriers: receive.data?.receivedCount ?? 0,
    openParseErrors: (receive.data?.carriers ?? []).reduce((n, c) => n + c.openErrorCount, 0),
    runStatus: run?.status ?? (summary.data && summary.data.count > 0 ? 'COMPLETED' : null),
    rows: summary.data?.count ?? 0,
    calculated: by('CALCULATED'),
    hold: by('HOLD'),
    confirmedOrPaid: by('CONFIRMED') + by('PAID'),
  };
  const detail: Partial<Record<CloseStep['key'], string>> = {
    received: receive.data ? t('close.receivedText', { received: facts.receivedCarriers, expected: facts.expectedCarriers, errors: facts.openParseErrors }) : undefined,
    run: run ? t('close.runText', { id: run.jobLogId, time: formatTimestamp(run.startedAt) }) : t('close.runNone'),
    // Before the run there is nothing to count: "0 of 0 confirmed" would only puzzle.
    review: facts.rows > 0 ? t('close.reviewText', { hold: facts.hold }) : undefined,
    confirm: facts.rows > 0 ? t('close.confirmText', { confirmed: facts.confirmedOrPaid, total: facts.rows }) : undefined,
  };

  return (
    <Card
      className="month-close"
      title={<h2 className="card-title">{t('close.title', { month: formatMonth(month) })}</h2>}
      extra={<MonthInput aria-label={t('close.month')} value={month} onChange={(v) => v && setMonth(v)} />}
    >
      <Row gutter={[12, 12]}>
        {closeSteps(facts)
          .filter((s) => menus?.can(STEP_ACTION[s.key].menu, 'READ') ?? false)
          .map((s) => {
            const action = STEP_ACTION[s.key];
            const button = (
              <Button
                type={s.state === 'ready' ? 'primary' : 'default'}
                size="small"
                disabled={s.state === 'waiting'}
                onClick={() => void navigate(action.path(month))}
              >
                {t(action.label)}
              </Button>
            );
            return (
              <Col key={s.key} xs={24} md={12} xl={8}>
                <Card size="small" className={`close-step close-${s.state}`} title={<h3 className="card-title">{t(STEP_TITLE[s.key])}</h3>} extra={<StatusTag status={STATE_TAG[s.state]} label={t(STATE_WORD[s.state])} />}>
                  {detail[s.key] && <Typography.Paragraph>{detail[s.key]}</Typography.Paragraph>}
                  {s.key === 'run' && run && <StatusTag status={run.status} />}
                  {s.state === 'waiting' && s.reason ? (
                    <Tooltip title={t(s.reason)}>
                      <span>
                        {button} <Typography.Text type="secondary">{t(s.reason)}</Typography.Text>
                      </span>
                    </Tooltip>
                  ) : (
                    button
                  )}
                  {s.key === 'run' && run?.status === 'COMPLETED' && (
                    <>
                      {' '}
                      <Link to={`/settle?settleMonth=${month}`}>{t('close.settlements')}</Link>
                    </>
                  )}
                </Card>
              </Col>
            );
          })}
      </Row>
    </Card>
  );
}
