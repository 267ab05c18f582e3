import { Alert, Card, Col, Empty, Row } from 'antd';
import { Link } from 'react-router';
import { useAuth } from '../../auth/auth.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { formatMonth } from '../../shared/format.js';
import { StatusTag } from '../../shared/status-tag.js';
import { Loading } from '../../shell/app-layout.js';
import { Figures } from './figures.js';
import { useMyMonths } from './portal-api.js';
import type { MonthView } from './portal-model.js';
import './portal.css';

function MonthCard({ m }: { m: MonthView }) {
  const { t } = useI18n();
  const month = formatMonth(m.settleMonth);
  return (
    <Card
      size="small"
      className="portal-card"
      data-month={m.settleMonth}
      title={
        <h2 className="portal-card-title">
          {t('portal.monthOf', { month })} <StatusTag status={m.status} />
        </h2>
      }
    >
      <Figures
        label={t('portal.monthOf', { month })}
        items={[
          ...m.parts.map((p) => ({ key: p.key, label: t(p.label), value: p.amount, minus: p.minus })),
          { key: 'gross', label: t('portal.gross'), value: m.gross, total: true },
          { key: 'tax', label: t('portal.tax'), value: m.tax, minus: true },
          m.deductions === null
            ? { key: 'deductions', label: t('portal.deductions'), value: t('portal.notPaidYet'), money: false }
            : { key: 'deductions', label: t('portal.deductions'), value: m.deductions, minus: true },
          { key: 'net', label: t('portal.net'), value: m.net, total: true },
        ]}
      />
      <p className="portal-note">{m.partsAddUp ? t('portal.partsAddUp') : t('portal.partsDiffer')}</p>
      <div className="portal-actions">
        <Link className="portal-link-button" to={`/my/settle/${m.settleId}`}>
          {t('portal.open', { month })}
        </Link>
      </div>
    </Card>
  );
}

/** "My settlement": an agent's months, newest first, with the parts of gross, tax, deductions and net. */
export default function MySettlementPage() {
  const { t } = useI18n();
  const { user } = useAuth();
  const months = useMyMonths();
  return (
    <>
      <h1 className="page-title">{t('portal.title')}</h1>
      <p className="portal-intro">
        {t('portal.intro')} {t('portal.unit')}.
      </p>
      {user && user.agentId == null && <Alert type="info" showIcon title={t('portal.noAgent')} className="list-toolbar" />}
      {months.isLoading ? (
        <Loading />
      ) : months.error ? (
        <ErrorNotice error={months.error} />
      ) : !months.data?.length ? (
        <Empty description={t('portal.noMonths')} />
      ) : (
        <Row gutter={[16, 16]}>
          {months.data.map((m) => (
            <Col key={m.settleId} xs={24} md={12} xl={8}>
              <MonthCard m={m} />
            </Col>
          ))}
        </Row>
      )}
    </>
  );
}
