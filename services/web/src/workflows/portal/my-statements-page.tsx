import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Empty, Row } from 'antd';
import { downloadFile } from '../../api/client.js';
import { ApiError } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import type { MessageKey } from '../../i18n/messages.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { formatMonth, formatTimestamp } from '../../shared/format.js';
import { StatusTag } from '../../shared/status-tag.js';
import { Loading } from '../../shell/app-layout.js';
import { Figures } from './figures.js';
import { portalKeys, useMyStatements, type StatementRow } from './portal-api.js';
import { fromCents, toCents } from './portal-model.js';
import './portal.css';

const TYPE_WORDS: Record<string, MessageKey> = { MONTHLY: 'stmt.monthly', ANNUAL: 'stmt.annual', PROOF: 'stmt.proof' };

function StatementCard({ s }: { s: StatementRow }) {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const month = formatMonth(s.settleMonth);
  const type = TYPE_WORDS[String(s.statementType)];
  const download = () =>
    void downloadFile(`/api/statements/${String(s.statementId)}/download`, `statement-${String(s.settleMonth)}.xlsx`)
      .then(async () => {
        void message.success(t('portal.stmt.downloaded'));
        await queryClient.invalidateQueries({ queryKey: portalKeys.statements });
      })
      .catch((err: unknown) =>
        message.error(err instanceof ApiError ? t('common.errorWithCode', { text: errorText(err.code, err.message), code: err.code }) : String(err)),
      );
  const status = String(s.issueStatus ?? '');
  return (
    <Card
      size="small"
      className="portal-card"
      data-statement={s.statementId}
      title={
        <h2 className="portal-card-title">
          {month} {type ? t(type) : null}{' '}
          <StatusTag status={status} label={status === 'DOWNLOADED' ? t('portal.stmt.DOWNLOADED') : undefined} tone={status === 'DOWNLOADED' ? 'good' : undefined} />
        </h2>
      }
    >
      <Figures
        label={month}
        items={[
          { key: 'gross', label: t('portal.gross'), value: s.grossAmount ?? '-' },
          { key: 'tax', label: t('portal.tax'), value: sumTaxes(s), minus: true },
          { key: 'deductions', label: t('portal.deductions'), value: s.deductionAmount ?? '0.00', minus: true },
          { key: 'net', label: t('portal.netPaid'), value: s.netAmount ?? '-', total: true },
          { key: 'issuedAt', label: t('portal.stmt.issuedAt'), value: formatTimestamp(s.issuedAt), money: false },
        ]}
      />
      <div className="portal-actions">
        <Button type="primary" onClick={download} disabled={status === 'CANCELLED'}>
          {t('portal.stmt.downloadOf', { month })}
        </Button>
      </div>
    </Card>
  );
}

/** Income, local and value-added tax of a statement in one figure (exact: summed as cents). */
function sumTaxes(s: StatementRow): string {
  return fromCents([s.incomeTaxAmount, s.localTaxAmount, s.vatAmount].reduce<bigint>((sum, v) => sum + (toCents(v ?? '0') ?? 0n), 0n));
}

/** The agent's own statements, newest month first, each to download. */
export default function MyStatementsPage() {
  const { t } = useI18n();
  const statements = useMyStatements();
  return (
    <>
      <h1 className="page-title">{t('portal.stmt.title')}</h1>
      <p className="portal-intro">{t('portal.unit')}.</p>
      {statements.isLoading ? (
        <Loading />
      ) : statements.error ? (
        <ErrorNotice error={statements.error} />
      ) : !statements.data?.length ? (
        <Empty description={t('portal.stmt.none')} />
      ) : (
        <Row gutter={[16, 16]}>
          {statements.data.map((s) => (
            <Col key={s.statementId} xs={24} md={12} xl={8}>
              <StatementCard s={s} />
            </Col>
          ))}
        </Row>
      )}
    </>
  );
}
