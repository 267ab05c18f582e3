import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Popconfirm } from 'antd';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client.js';
import { ApiError, unwrap } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';
import { formatCount, formatMoney, formatMonth } from '../shared/format.js';
import { StatusTag } from '../shared/status-tag.js';
import { CLOSE_KEY, type useMonthClose } from './month-close-data.js';

type Close = ReturnType<typeof useMonthClose>;

/** One line of a block: a fact in words, with where to look at it. */
export function Fact({ children, link }: { children: ReactNode; link?: { to: string; label: string } | undefined }) {
  return (
    <li>
      {children}
      {link && (
        <>
          {' '}
          <Link to={link.to}>{link.label}</Link>
        </>
      )}
    </li>
  );
}

/** Per carrier: its files, rows, open parse errors and the reconciliation (matched, or the difference). */
export function Carriers({ close }: { close: Close }) {
  const { t } = useI18n();
  const carriers = close.receive?.carriers ?? [];
  if (carriers.length === 0) return null;
  return (
    <ul className="close-carriers" aria-label={t('close.carriersOf')}>
      {carriers.map((c) => (
        <li key={c.companyCode}>
          <span className="close-carrier-name">{c.companyName}</span> <StatusTag status={c.received ? 'RECEIVED' : 'MISSING'} />
          <span className="close-carrier-figures">
            {t('close.files')} {formatCount(c.fileCount)} · {t('close.rows')} {formatCount(c.rowCount)} · {t('close.parseErrors')} {formatCount(c.openErrorCount)}
          </span>
          <span className="close-carrier-recon">
            {t('close.recon')}{' '}
            {c.reconStatus ? <StatusTag status={c.reconStatus} /> : t('close.notReconciled')}
            {c.reconStatus === 'DIFF' && c.diffAmount ? ` ${t('close.diffAmount', { amount: formatMoney(c.diffAmount) })}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** What needs a look before confirming: DIFF carriers, pending exceptions, holds with their reasons, disputes. */
export function Review({ close, month }: { close: Close; month: string }) {
  const { t } = useI18n();
  const f = close.facts;
  const holds = close.holds?.list ?? [];
  return (
    <ul className="close-facts">
      <Fact link={f.diffCarriers > 0 ? { to: `/receive/data?resource=Reconciliation&settleMonth=${month}&reconStatus=DIFF`, label: t('close.reviewDiffLink') } : undefined}>
        {t('close.reviewDiff', { count: f.diffCarriers })}
      </Fact>
      <Fact link={f.pendingExceptions > 0 ? { to: `/ledger/exception?settleMonth=${month}&approveStatus=PENDING`, label: t('close.reviewExceptionsLink') } : undefined}>
        {t('close.reviewExceptions', { count: f.pendingExceptions })}
      </Fact>
      <Fact>
        {t('close.reviewText', { hold: f.hold })}
        {holds.length > 0 && (
          <ul className="close-holds">
            {holds.map((h) => (
              <li key={h.holdId}>{t('close.holdReason', { agent: h.agentName ?? '', reason: h.reason ?? h.reasonCodeName ?? '' })}</li>
            ))}
          </ul>
        )}
      </Fact>
      <Fact link={f.openDisputes > 0 ? { to: `/settle/disputes?settleMonthFrom=${month}&settleMonthTo=${month}`, label: t('close.reviewDisputesLink') } : undefined}>
        {t('close.reviewDisputes', { count: f.openDisputes })}
      </Fact>
    </ul>
  );
}

/** Confirmed against the month's rows, with the held rows said plainly: they stay held. */
export function Confirmation({ close }: { close: Close }) {
  const { t } = useI18n();
  const f = close.facts;
  if (f.rows === 0) return null;
  return (
    <ul className="close-facts">
      <li>{t('close.confirmProgress', { confirmed: f.confirmedOrPaid, total: f.rows, hold: f.hold })}</li>
      {f.calculated > 0 && <li>{t('close.toConfirm', { count: f.calculated })}</li>}
      {f.hold > 0 && <li className="close-note">{t('close.heldStay')}</li>}
    </ul>
  );
}

/** Generated, skipped (each agent linked to its form), taxed, deducted, in a transfer file. */
export function Payments({ close }: { close: Close }) {
  const { t } = useI18n();
  const f = close.facts;
  if (f.payments === 0) return <p>{t('close.payNone')}</p>;
  return (
    <ul className="close-facts">
      <li>{t('close.payGenerated', { count: f.payments })}</li>
      {close.skipped.length > 0 && (
        <li>
          {t('close.paySkipped', { count: f.skipped })}
          <ul className="close-skipped">
            {close.skipped.map((s) => (
              <li key={s.settleId}>
                <Link to={`/org/agents/${s.agentId}`}>{t('close.payFix', { agent: s.agentName ?? '' })}</Link>
              </li>
            ))}
          </ul>
        </li>
      )}
      <li>{t('close.payTaxed', { count: f.taxed, total: f.payments })}</li>
      <li>{t('close.payDeducted', { count: close.deducted })}</li>
      <li>{t('close.payTransferred', { count: f.transferred, total: f.payments })}</li>
    </ul>
  );
}

type Outcome = { ok: boolean; text: string } | null;

/** A cockpit action that runs in place (no page of its own does it): asks first, then says what happened. */
function useAction(run: () => Promise<string>) {
  const { errorText } = useI18n();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const mutation = useMutation({
    mutationFn: run,
    onMutate: () => setOutcome(null),
    onSuccess: async (text) => {
      setOutcome({ ok: true, text });
      await queryClient.invalidateQueries({ queryKey: [CLOSE_KEY] });
    },
    onError: (err) => setOutcome({ ok: false, text: err instanceof ApiError ? errorText(err.code, err.message) : String(err) }),
  });
  return { mutation, outcome };
}

function OutcomeNote({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return <Alert className="close-outcome" showIcon type={outcome.ok ? 'success' : 'error'} role={outcome.ok ? 'status' : 'alert'} title={outcome.text} />;
}

/** An action button behind a confirmation, disabled (with the reason beside it) when it cannot run. */
export function ConfirmedAction(props: { label: string; question: string; disabled: boolean; primary: boolean; run: () => Promise<string> }) {
  const { t } = useI18n();
  const { mutation, outcome } = useAction(props.run);
  return (
    <>
      <Popconfirm title={props.question} okText={props.label} cancelText={t('close.cancel')} onConfirm={() => mutation.mutate()} disabled={props.disabled}>
        <Button type={props.primary ? 'primary' : 'default'} size="small" disabled={props.disabled} loading={mutation.isPending}>
          {props.label}
        </Button>
      </Popconfirm>
      <OutcomeNote outcome={outcome} />
    </>
  );
}

/** The accounting close of the month: a draft made when there is none, then executed. */
export function useAccountingClose(close: Close, month: string) {
  const { t } = useI18n();
  return async () => {
    let id = close.accountingClose?.closeId;
    if (id == null) id = unwrap<{ id: number }>(await api.POST('/api/accounting-closes', { body: { settleMonth: month } })).id;
    const done = unwrap<{ journalNo: string; entryCount: number }>(await api.POST('/api/accounting-closes/{id}/execute', { params: { path: { id } } }));
    return t('close.accountingDone', { journal: done.journalNo, count: done.entryCount });
  };
}

/** The withholding and VAT reports of the month's quarter, recomputed from its payments. */
export function useTaxReports(close: Close) {
  const { t } = useI18n();
  return async () => {
    const body = { settleQuarter: close.quarter };
    const w = unwrap<{ affected: number }>(await api.POST('/api/withholding-tax-reports/regenerate', { body }));
    const v = unwrap<{ affected: number }>(await api.POST('/api/vat-reports/regenerate', { body }));
    return t('close.taxDone', { withholding: w.affected, vat: v.affected });
  };
}

/** The period close of the month: its row made when there is none, then closed. */
export function usePeriodClose(close: Close, month: string) {
  const { t } = useI18n();
  return async () => {
    let id = close.period?.closeId ?? null;
    if (id == null) id = unwrap<{ id: number }>(await api.POST('/api/period-closes', { body: { settleMonth: month } })).id;
    const row = unwrap<{ version: number }>(await api.GET('/api/period-closes/{id}', { params: { path: { id } } }));
    unwrap(await api.POST('/api/period-closes/{id}/close', { params: { path: { id } }, body: { version: row.version } }));
    return t('close.periodDone', { month: formatMonth(month) });
  };
}
