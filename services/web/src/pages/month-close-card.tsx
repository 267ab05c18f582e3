import { Button, Card, Col, Row, Skeleton, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useI18n } from '../i18n/i18n.js';
import type { MessageKey } from '../i18n/messages.js';
import { formatMonth, formatTimestamp } from '../shared/format.js';
import { MonthInput } from '../shared/month-input.js';
import { StatusTag } from '../shared/status-tag.js';
import { useMyMenus } from '../shell/menus.js';
import { closeSteps, type CloseStep, type StepKey, type StepState } from './month-close.js';
import {
  Carriers,
  Confirmation,
  ConfirmedAction,
  Payments,
  Review,
  useAccountingClose,
  usePeriodClose,
  useTaxReports,
} from './month-close-blocks.js';
import { useLatestRun, useMonthClose } from './month-close-data.js';

const CHOSEN_MONTH = 'csp.closeMonth';

/** The previous calendar month in Seoul, as `YYYYMM`: the month an agency usually closes. */
function lastMonth(): string {
  const now = new Date(Date.now() + 9 * 3600_000);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth(); // 0-based: the previous month's number
  return m === 0 ? `${y - 1}12` : `${y}${String(m).padStart(2, '0')}`;
}

const STEP_TITLE: Record<StepKey, MessageKey> = {
  received: 'close.received',
  run: 'close.run',
  review: 'close.review',
  confirm: 'close.confirm',
  payments: 'close.payments',
  statements: 'close.statements',
  accounting: 'close.accounting',
  taxReports: 'close.taxReports',
  periodClose: 'close.periodClose',
  kpi: 'close.kpi',
};
/** Where each step's button goes, the month preselected; the menu whose READ shows the step. */
const STEP_ACTION: Record<StepKey, { label: MessageKey; path: (m: string, quarter: string) => string; menu: string }> = {
  received: { label: 'close.receiveAction', path: (m) => `/receive/data?settleMonth=${m}`, menu: 'RECEIVE_DATA' },
  run: { label: 'close.runAction', path: (m) => `/settle/batch?settleMonth=${m}`, menu: 'BATCH_RUN' },
  review: { label: 'close.reviewAction', path: (m) => `/settle?settleMonth=${m}&status=HOLD`, menu: 'SETTLE_LIST' },
  confirm: { label: 'close.confirmAction', path: (m) => `/settle?settleMonth=${m}&status=CALCULATED`, menu: 'SETTLE_LIST' },
  payments: { label: 'close.payAction', path: (m) => `/payments?settleMonth=${m}`, menu: 'PAYMENT' },
  statements: { label: 'close.statementAction', path: (m) => `/payments/statements?settleMonth=${m}`, menu: 'STATEMENT' },
  accounting: { label: 'close.entriesLink', path: (m) => `/commission/accounting-journal?settleMonth=${m}`, menu: 'ACCOUNTING_JOURNAL' },
  taxReports: { label: 'close.taxLink', path: (_, q) => `/commission/withholding-tax?settleQuarter=${q}`, menu: 'WITHHOLDING_TAX' },
  periodClose: { label: 'close.periodLink', path: (m) => `/settle/period-close?settleMonthFrom=${m}&settleMonthTo=${m}`, menu: 'PERIOD_CLOSE' },
  kpi: { label: 'close.kpiAction', path: () => '/kpi/monthly', menu: 'KPI_MONTHLY' },
};
const STATE_TAG: Record<StepState, string> = { done: 'COMPLETED', partial: 'DIFF', ready: 'PENDING', waiting: 'HOLD' };
const STATE_WORD: Record<StepState, MessageKey> = { done: 'close.done', partial: 'close.partial', ready: 'close.ready', waiting: 'close.waiting' };

/** The operator's home: where the month stands, each step with its action, disabled with the reason. */
export function MonthCloseCard({ onReady }: { onReady?: () => void } = {}) {
  const { t } = useI18n();
  const { menus } = useMyMenus();
  const navigate = useNavigate();
  const can = (menu: string, perm: 'READ' | 'CREATE' | 'UPDATE' | 'EXECUTE' = 'READ') => menus?.can(menu, perm) ?? false;
  // The month of the latest run until the operator picks another; else last calendar month.
  const latest = useLatestRun(can('BATCH_RUN'));
  // A month the operator picked stays picked while they go to a page the cockpit sends them to and come back.
  const [chosen, setChosen] = useState<string | undefined>(() => sessionStorage.getItem(CHOSEN_MONTH) ?? undefined);
  const setMonth = (m: string) => {
    sessionStorage.setItem(CHOSEN_MONTH, m);
    setChosen(m);
  };
  const month = chosen ?? latest.data?.settleMonth ?? lastMonth();
  // The month's reads wait for the latest run's month (else they would run for last calendar month first, then again).
  const close = useMonthClose(month, chosen !== undefined || !latest.isLoading);
  const { facts: f, run } = close;
  useEffect(() => {
    if (!close.loading) onReady?.();
  }, [close.loading, onReady]);
  const accounting = useAccountingClose(close, month);
  const taxes = useTaxReports(close);
  const period = usePeriodClose(close, month);

  /** The facts of each step, in words. */
  const detail = (key: StepKey): ReactNode => {
    switch (key) {
      case 'received':
        return (
          <>
            {close.receive && (
              <Typography.Paragraph>
                {t('close.receivedText', { received: f.receivedCarriers, expected: f.expectedCarriers, errors: f.openParseErrors })}{' '}
                {f.openParseErrors > 0 && <Link to={`/receive/data?resource=ParseError&settleMonth=${month}&resolveStatus=OPEN`}>{t('close.parseErrorsLink')}</Link>}
              </Typography.Paragraph>
            )}
            <Carriers close={close} />
          </>
        );
      case 'run':
        return (
          <Typography.Paragraph>
            {run ? t('close.runText', { id: run.jobLogId, time: formatTimestamp(run.startedAt) }) : t('close.runNone')} {run && <StatusTag status={run.status} />}
          </Typography.Paragraph>
        );
      // Before the run there is nothing to count: "0 of 0 confirmed" would only puzzle.
      case 'review':
        return f.rows > 0 ? <Review close={close} month={month} /> : null;
      case 'confirm':
        return <Confirmation close={close} />;
      case 'payments':
        return f.rows > 0 ? <Payments close={close} /> : null;
      case 'statements':
        return f.rows > 0 ? <Typography.Paragraph>{t('close.statementsText', { count: f.statements })}</Typography.Paragraph> : null;
      case 'accounting':
        return f.rows > 0 ? (
          <ul className="close-facts">
            <li>{t('close.entriesText', { count: close.entries })}</li>
            <li>{close.accountingClose?.status === 'CLOSED' ? t('close.accountingClosed', { journal: close.accountingClose.journalNo ?? '' }) : t('close.accountingNone')}</li>
          </ul>
        ) : null;
      case 'taxReports':
        return f.rows > 0 ? (
          <Typography.Paragraph>
            {t('close.taxText', { quarter: close.quarter, withholding: f.taxReports, vat: close.vatReports })}
            {f.payments > 0 && f.taxReports > 0 && !f.taxReportsCurrent && ` ${t('close.taxStale')}`}
          </Typography.Paragraph>
        ) : null;
      case 'periodClose':
        return close.period && f.rows > 0 ? (
          <Typography.Paragraph>
            {t('close.periodText', { count: close.period.settleRows, blocking: close.period.blocking })} <StatusTag status={close.period.status} />
          </Typography.Paragraph>
        ) : null;
      case 'kpi':
        return null;
    }
  };

  /** The step's own action run in place, where no page does it. */
  const inPlace = (s: CloseStep): ReactNode => {
    const disabled = s.state === 'waiting' || s.state === 'done';
    switch (s.key) {
      case 'accounting':
        return can('ACCOUNTING_JOURNAL', 'UPDATE') ? (
          <ConfirmedAction label={t('close.accountingAction')} question={t('close.accountingConfirm', { month: formatMonth(month) })} disabled={disabled} primary={s.state === 'ready'} run={accounting} />
        ) : null;
      case 'taxReports':
        return can('WITHHOLDING_TAX', 'EXECUTE') && can('VAT_REPORT', 'EXECUTE') ? (
          <ConfirmedAction label={t('close.taxAction')} question={t('close.taxConfirm', { quarter: close.quarter })} disabled={s.state === 'waiting'} primary={s.state === 'ready'} run={taxes} />
        ) : null;
      case 'periodClose':
        return can('PERIOD_CLOSE', 'UPDATE') ? (
          <ConfirmedAction label={t('close.closeAction')} question={t('close.periodConfirm', { month: formatMonth(month) })} disabled={disabled} primary={s.state === 'ready'} run={period} />
        ) : null;
      default:
        return null;
    }
  };

  return (
    <Card
      className="month-close"
      title={<h2 className="card-title">{t('close.title', { month: formatMonth(month) })}</h2>}
      // Typed before the latest run's month arrives, a month would be overwritten by it: the picker waits for it.
      extra={<MonthInput aria-label={t('close.month')} value={month} disabled={!menus || latest.isLoading} onChange={(v) => v && setMonth(v)} />}
    >
      {/* The blocks are drawn once, when the month's answers are in (not once per answer: a dozen reads). */}
      {close.loading ? (
        <Skeleton active title={false} paragraph={{ rows: 6 }} />
      ) : (
        <Row gutter={[12, 12]}>
          {closeSteps(f)
          .filter((s) => can(STEP_ACTION[s.key].menu))
          .map((s) => {
            const action = STEP_ACTION[s.key];
            const own = inPlace(s);
            // A step whose action runs here keeps a plain link to its records; the others' button opens the page that acts.
            const button = (
              <Button
                type={!own && s.state === 'ready' ? 'primary' : 'default'}
                size="small"
                disabled={!own && s.state === 'waiting'}
                onClick={() => void navigate(action.path(month, close.quarter))}
              >
                {t(action.label)}
              </Button>
            );
            return (
              <Col key={s.key} xs={24} md={12} xl={['received', 'run', 'review', 'confirm'].includes(s.key) ? 12 : 8}>
                <Card
                  size="small"
                  className={`close-step close-${s.state}`}
                  title={<h3 className="card-title">{t(STEP_TITLE[s.key])}</h3>}
                  extra={<StatusTag status={STATE_TAG[s.state]} label={t(STATE_WORD[s.state])} />}
                >
                  {detail(s.key)}
                  <div className="close-actions">
                    {own}
                    {button}
                    {s.key === 'run' && run?.status === 'COMPLETED' && <Link to={`/settle?settleMonth=${month}`}>{t('close.settlements')}</Link>}
                  </div>
                  {s.state === 'waiting' && s.reason && <Typography.Text type="secondary" className="close-reason">{t(s.reason)}</Typography.Text>}
                </Card>
              </Col>
            );
          })}
        </Row>
      )}
    </Card>
  );
}
