import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Empty, Form, Input, Row } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../api/envelope.js';
import { useAuth } from '../../auth/auth.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { formatDate, formatMoney, formatMonth } from '../../shared/format.js';
import { StatusTag } from '../../shared/status-tag.js';
import { Loading } from '../../shell/app-layout.js';
import { Figures, type Figure } from './figures.js';
import { portalKeys, requestWithdraw, useBalance, useMyWithdraws, type WithdrawRow } from './portal-api.js';
import { toCents, withinBalance } from './portal-model.js';
import './portal.css';

interface Values {
  amount: string;
  note?: string;
}

function WithdrawCard({ w }: { w: WithdrawRow }) {
  const { t } = useI18n();
  const items: Figure[] = [
    { key: 'amount', label: t('portal.wd.amount'), value: String(w.amount ?? '-') },
    { key: 'requestedOn', label: t('portal.wd.requestedOn'), value: formatDate(w.requestDate), money: false },
    { key: 'countsFor', label: t('portal.wd.countsFor'), value: formatMonth(w.settleMonth), money: false },
  ];
  if (w.rejectReason) items.push({ key: 'rejectReason', label: t('portal.wd.rejectReason'), value: <span className="portal-text">{w.rejectReason}</span>, money: false });
  return (
    <Card size="small" className="portal-card" data-withdraw={w.withdrawId} title={<h3 className="portal-card-title">{formatMoney(String(w.amount))} <StatusTag status={w.status} /></h3>}>
      <Figures items={items} />
      {w.note && <p className="portal-note portal-text">{w.note}</p>}
    </Card>
  );
}

/** The agent's balance, a withdraw request within it, and the requests made so far. */
export default function MyWithdrawPage() {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const balance = useBalance(user?.agentId);
  const withdraws = useMyWithdraws();
  const [form] = Form.useForm<Values>();
  const [sending, setSending] = useState(false);
  const available = balance.data?.available;
  const nothing = available !== undefined && (toCents(available) ?? 0n) <= 0n;

  const submit = async (values: Values) => {
    if (!user?.agentId) return;
    setSending(true);
    try {
      await requestWithdraw(user.agentId, values.amount.trim(), values.note?.trim() || undefined);
      form.resetFields();
      void message.success(t('portal.wd.sent'));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: portalKeys.withdraws }),
        queryClient.invalidateQueries({ queryKey: portalKeys.balance(user.agentId) }),
      ]);
    } catch (err) {
      void message.error(err instanceof ApiError ? t('common.errorWithCode', { text: errorText(err.code, err.message), code: err.code }) : String(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <h1 className="page-title">{t('portal.wd.title')}</h1>
      <p className="portal-intro">{t('portal.wd.intro')}</p>
      <Row gutter={[16, 16]} className="list-toolbar">
        <Col xs={24} md={12}>
          <Card size="small" className="portal-card" title={<h2 className="portal-card-title">{t('portal.wd.balance')}</h2>}>
            {balance.isLoading ? (
              <Loading />
            ) : balance.error ? (
              <ErrorNotice error={balance.error} />
            ) : balance.data ? (
              <Figures
                label={t('portal.wd.balance')}
                items={[
                  { key: 'confirmedUnpaid', label: t('portal.wd.confirmedUnpaid'), value: balance.data.confirmedUnpaid },
                  { key: 'outstanding', label: t('portal.wd.outstanding'), value: balance.data.outstandingWithdraws, minus: true },
                  { key: 'available', label: t('portal.wd.available'), value: balance.data.available, total: true },
                ]}
              />
            ) : null}
            <p className="portal-note">{t('portal.unit')}</p>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card size="small" className="portal-card" title={<h2 className="portal-card-title">{t('portal.wd.new')}</h2>}>
            {nothing && <p className="portal-note">{t('portal.wd.nothing')}</p>}
            <Form form={form} layout="vertical" name="withdraw" onFinish={(v) => void submit(v)} disabled={!user?.agentId || nothing}>
              <Form.Item
                name="amount"
                label={t('portal.wd.amount')}
                rules={[
                  { required: true, whitespace: true, message: t('portal.wd.amountMissing') },
                  {
                    validator: async (_rule, value: string | undefined) => {
                      if (!value?.trim()) return;
                      const verdict = withinBalance(value.trim(), available);
                      if (verdict === 'invalid') throw new Error(t('portal.wd.amountInvalid'));
                      if (verdict === 'tooMuch') throw new Error(t('portal.wd.tooMuch', { available: formatMoney(available) }));
                    },
                  },
                ]}
              >
                <Input inputMode="decimal" autoComplete="off" />
              </Form.Item>
              <Form.Item name="note" label={t('portal.wd.note')}>
                <Input maxLength={500} />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={sending}>
                {t('portal.wd.submit')}
              </Button>
            </Form>
          </Card>
        </Col>
      </Row>
      <h2 className="card-title list-toolbar">{t('portal.wd.history')}</h2>
      {withdraws.isLoading ? (
        <Loading />
      ) : withdraws.error ? (
        <ErrorNotice error={withdraws.error} />
      ) : !withdraws.data?.length ? (
        <Empty description={t('portal.wd.none')} />
      ) : (
        <Row gutter={[16, 16]}>
          {withdraws.data.map((w) => (
            <Col key={w.withdrawId} xs={24} md={12} xl={8}>
              <WithdrawCard w={w} />
            </Col>
          ))}
        </Row>
      )}
    </>
  );
}
