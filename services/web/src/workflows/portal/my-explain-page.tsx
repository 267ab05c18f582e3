import { Alert, Button, Card, Collapse, Empty, Grid } from 'antd';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { kindValue } from '../../resources/field-value.js';
import { formatCount, formatMonth, formatRate } from '../../shared/format.js';
import { StatusTag } from '../../shared/status-tag.js';
import { Loading } from '../../shell/app-layout.js';
import { LINE_COLUMNS, SECTION_TITLES } from '../explain-columns.js';
import { DisputeDialog, type DisputeSubject } from './dispute-dialog.js';
import { Figures, type Figure } from './figures.js';
import { useMyDisputes, useMyExplain } from './portal-api.js';
import { disputeTarget, suggestedReason } from './portal-model.js';
import './portal.css';

type Line = Record<string, unknown>;

/** The line's own figures in words: the explain columns minus its title (policy) and status (a tag). */
const LINE_FIELDS = LINE_COLUMNS.filter((c) => c.key !== 'policyNo' && c.key !== 'status');

const PART_TOTALS: { key: string; label: MessageKey; minus?: boolean }[] = [
  { key: 'recruit', label: 'portal.part.recruit' },
  { key: 'maintain', label: 'portal.part.maintain' },
  { key: 'override', label: 'portal.part.override' },
  { key: 'other', label: 'portal.part.other' },
  { key: 'correction', label: 'portal.part.correction' },
  { key: 'exceptionPlus', label: 'portal.part.exceptionPlus' },
  { key: 'exceptionMinus', label: 'portal.part.exceptionMinus', minus: true },
  { key: 'chargeback', label: 'portal.part.chargeback', minus: true },
];

/** A month of an agent's settlement line by line, in words, with a dispute on any line. */
export default function MyExplainPage() {
  const { t, statusName } = useI18n();
  const settleId = Number(useParams().settleId);
  const explain = useMyExplain(settleId);
  const disputes = useMyDisputes();
  const [subject, setSubject] = useState<DisputeSubject | null>(null);
  const phone = Grid.useBreakpoint().md === false;
  if (explain.isLoading) return <Loading />;
  if (explain.error) return <ErrorNotice error={explain.error} />;
  const e = explain.data;
  if (!e) return null;
  const month = formatMonth(e.settleMonth);
  const totals = e.totals as Record<string, string>;
  const disputed = new Map((disputes.data ?? []).map((d) => [`${String(d.targetTable)}:${String(d.targetId)}`, d.status ?? 'OPEN']));

  const value = (kind: (typeof LINE_FIELDS)[number]['kind'], key: string, v: unknown, line: Line): ReactNode => {
    // a figure reads as words (a commission type, a correction's kind); the line's own status is the tag in its head
    if (kind === 'status') return statusName(String(v));
    if (kind === 'count') {
      return key === 'installmentSeq' && line.installmentTotal != null
        ? t('explain.installmentOf', { seq: String(v), total: String(line.installmentTotal) })
        : formatCount(v as number);
    }
    return kindValue(kind, v, t);
  };

  const lineCard = (section: string, sectionTitle: string, line: Line, index: number) => {
    const target = disputeTarget(section, line, e.settleId);
    const policy = typeof line.policyNo === 'string' ? line.policyNo : null;
    const what = policy
      ? t('portal.explain.lineOf', { section: sectionTitle, policy })
      : t('portal.explain.lineNo', { section: sectionTitle, no: index + 1 });
    const status = target.targetTable === 'settle_master' ? undefined : disputed.get(`${target.targetTable}:${target.targetId}`);
    const figures: Figure[] = LINE_FIELDS.filter((c) => line[c.key] !== null && line[c.key] !== undefined && line[c.key] !== '').map((c) => ({
      key: c.key,
      label: t(c.label),
      value: c.kind === 'money' ? String(line[c.key]) : c.kind === 'rate' ? formatRate(String(line[c.key])) : value(c.kind, c.key, line[c.key], line),
      money: c.kind === 'money',
    }));
    return (
      <div className="portal-line" key={index} data-line={`${target.targetTable}:${target.targetId}`}>
        <div className="portal-line-head">
          <span className="portal-line-title">{policy ?? t('portal.explain.lineNo', { section: sectionTitle, no: index + 1 })}</span>
          {typeof line.status === 'string' && <StatusTag status={line.status} />}
        </div>
        {phone ? (
          // On a phone a line opens on demand: a month of contracts stays a short list of names and amounts.
          <details className="portal-line-more">
            <summary>{t('portal.explain.figures')}</summary>
            <Figures items={figures} label={what} />
          </details>
        ) : (
          <Figures items={figures} label={what} />
        )}
        <div className="portal-actions">
          {status && (
            <span>
              {t('portal.dispute.open')} <StatusTag status={status} />
            </span>
          )}
          <Button
            size="small"
            aria-label={t('portal.dispute.raiseOn', { what })}
            onClick={() => setSubject({ ...target, what, reasonCode: suggestedReason(section) })}
          >
            {t('portal.dispute.raise')}
          </Button>
        </div>
      </div>
    );
  };

  const sections = e.sections as Record<string, Line[] | undefined>;
  const shown = Object.entries(SECTION_TITLES).filter(([key]) => (sections[key]?.length ?? 0) > 0);

  return (
    <>
      <h1 className="page-title">
        {t('portal.explain.title', { month })} <StatusTag status={e.status} />
      </h1>
      <div className="portal-actions list-toolbar">
        <Link to="/">{t('portal.explain.back')}</Link>
      </div>
      <Alert
        type={e.reconciles ? 'success' : 'warning'}
        showIcon
        title={e.reconciles ? t('portal.explain.adds') : t('portal.explain.notAdds')}
        className="list-toolbar"
      />
      <Card size="small" className="portal-card portal-totals list-toolbar" title={<h2 className="portal-card-title">{t('portal.explain.totals')}</h2>}>
        <Figures
          label={t('portal.explain.totals')}
          items={[
            ...PART_TOTALS.map((p) => ({ key: p.key, label: t(p.label), value: totals[p.key] ?? '0.00', minus: p.minus ?? false })),
            { key: 'gross', label: t('portal.gross'), value: totals.gross ?? '-', total: true },
            { key: 'taxRate', label: t('portal.taxRate'), value: formatRate(totals.taxRate), money: false },
            { key: 'tax', label: t('portal.tax'), value: totals.tax ?? '-', minus: true },
            { key: 'net', label: t('portal.net'), value: totals.net ?? '-', total: true },
          ]}
        />
        <p className="portal-note">{t('portal.unit')}</p>
        <div className="portal-actions">
          <Button
            onClick={() => setSubject({ targetTable: 'settle_master', targetId: e.settleId, what: t('portal.monthOf', { month }), reasonCode: 'OTHER' })}
          >
            {t('portal.explain.disputeMonth')}
          </Button>
        </div>
      </Card>
      {shown.length === 0 ? (
        <Empty description={t('portal.explain.noLines')} />
      ) : (
        <Collapse
          className="portal-lines"
          defaultActiveKey={phone ? [] : shown.map(([key]) => key)}
          items={shown.map(([key, title]) => {
            const rows = sections[key] ?? [];
            return {
              key,
              label: t('portal.explain.lines', { title: t(title), count: rows.length }),
              children: <div className="portal-line-grid">{rows.map((line, i) => lineCard(key, t(title), line, i))}</div>,
            };
          })}
        />
      )}
      <DisputeDialog subject={subject} onClose={() => setSubject(null)} />
    </>
  );
}
