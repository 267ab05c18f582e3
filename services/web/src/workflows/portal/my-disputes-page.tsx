import { Card, Col, Empty, Row } from 'antd';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { formatMonth, formatTimestamp } from '../../shared/format.js';
import { StatusTag } from '../../shared/status-tag.js';
import { Loading } from '../../shell/app-layout.js';
import { Figures, type Figure } from './figures.js';
import { useMyDisputes, type DisputeRow } from './portal-api.js';
import './portal.css';

function DisputeCard({ d }: { d: DisputeRow }) {
  const { t } = useI18n();
  const about = t(`portal.target.${String(d.targetTable)}` as MessageKey);
  const items: Figure[] = [
    { key: 'month', label: t('portal.disputes.month'), value: formatMonth(d.settleMonth), money: false },
    { key: 'raisedAt', label: t('portal.disputes.raisedAt'), value: formatTimestamp(d.createdAt), money: false },
    { key: 'reason', label: t('portal.disputes.reason'), value: t(`portal.reason.${String(d.reasonCode)}` as MessageKey), money: false },
  ];
  if (d.claimedAmount) items.push({ key: 'claimed', label: t('common.moneyTitle', { title: t('portal.disputes.claimed') }), value: d.claimedAmount });
  if (d.approvedAmount) items.push({ key: 'approved', label: t('common.moneyTitle', { title: t('portal.disputes.approved') }), value: d.approvedAmount });
  if (d.correctionMonth) items.push({ key: 'correctionMonth', label: t('portal.disputes.correctionMonth'), value: formatMonth(d.correctionMonth), money: false });
  const answer = d.decisionNote ?? d.reviewNote;
  return (
    <Card
      size="small"
      className="portal-card"
      data-dispute={d.disputeId}
      title={
        <h2 className="portal-card-title">
          {about} <StatusTag status={d.status} />
        </h2>
      }
    >
      <Figures items={items} label={about} />
      <p className="portal-note portal-text">{d.reasonText}</p>
      {answer && (
        <p className="portal-note portal-text">
          <strong>{t('portal.disputes.answer')}:</strong> {answer}
        </p>
      )}
    </Card>
  );
}

/** The agent's own disputes, newest first, with where each one stands. */
export default function MyDisputesPage() {
  const { t } = useI18n();
  const disputes = useMyDisputes();
  return (
    <>
      <h1 className="page-title">{t('portal.disputes.title')}</h1>
      {disputes.isLoading ? (
        <Loading />
      ) : disputes.error ? (
        <ErrorNotice error={disputes.error} />
      ) : !disputes.data?.length ? (
        <Empty description={t('portal.disputes.none')} />
      ) : (
        <Row gutter={[16, 16]}>
          {disputes.data.map((d) => (
            <Col key={d.disputeId} xs={24} md={12} xl={8}>
              <DisputeCard d={d} />
            </Col>
          ))}
        </Row>
      )}
    </>
  );
}
