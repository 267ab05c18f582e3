import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Select, Space } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, downloadFile } from '../api/client.js';
import { ApiError, unwrap } from '../api/envelope.js';
import type { paths } from '../api/schema';
import { useI18n } from '../i18n/i18n.js';
import { formatDate, formatMoney } from '../shared/format.js';
import { MonthInput, monthPattern } from '../shared/month-input.js';
import ResourcePage from '../resources/resource-page.js';
import { useGrant } from '../shell/menus.js';

type TransferFile = paths['/api/payments/transfer-file']['post']['responses'][200]['content']['application/json']['data'];
type Generated = paths['/api/payments/generate']['post']['responses'][200]['content']['application/json']['data'];
type Skipped = Generated['skipped'][number];
type Outcome = { ok: boolean; text: string; skipped?: Skipped[] };
type Step = 'generate' | 'taxes' | 'deductions' | 'transfer';

/** The month's payment steps in order: generate, taxes, deductions, transfer file (then download it). */
function PaymentSteps() {
  const { t, errorText } = useI18n();
  const can = useGrant('PAYMENT');
  // The outcome of the last step stays on screen: a refusal, or the agents generate skipped, can list many agents to fix.
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [month, setMonth] = useState(params.get('settleMonth') ?? '');
  const [format, setFormat] = useState<'CSV' | 'FIXED'>('CSV');
  const [file, setFile] = useState<TransferFile | null>(null);
  const valid = monthPattern.test(month);
  const query = { params: { query: { settleMonth: month } } };

  const step = useMutation({
    mutationFn: async (which: Step): Promise<Outcome> => {
      switch (which) {
        case 'generate': {
          const g = unwrap<Generated>(await api.POST('/api/payments/generate', query));
          return { ok: true, text: t('pay.generated', { count: g.created }), skipped: g.skipped };
        }
        case 'taxes':
          return { ok: true, text: t('pay.taxed', { count: unwrap<{ calculated: number }>(await api.POST('/api/payments/calculate-taxes', query)).calculated }) };
        case 'deductions': {
          const d = unwrap<{ payments: number; deductions: number; deductionSum: string }>(await api.POST('/api/payments/apply-deductions', query));
          return { ok: true, text: t('pay.deducted', { deductions: d.deductions, sum: formatMoney(d.deductionSum), payments: d.payments }) };
        }
        case 'transfer': {
          const f = unwrap<TransferFile>(await api.POST('/api/payments/transfer-file', { body: { settleMonth: month, bankFormat: format } }));
          setFile(f);
          return { ok: true, text: t('pay.written', { count: f.count, file: f.fileName }) };
        }
      }
    },
    onMutate: () => setOutcome(null),
    onSuccess: async (result) => {
      setOutcome(result);
      await queryClient.invalidateQueries({ queryKey: ['list'] });
    },
    onError: (err) => setOutcome({ ok: false, text: err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err) }),
  });

  const download = async () => {
    if (!file) return;
    try {
      await downloadFile(`/api/payments/transfer-file/${file.fileId}`, file.fileName);
    } catch (err) {
      setOutcome({ ok: false, text: err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err) });
    }
  };

  if (!can('UPDATE')) return null;
  const busy = (which: Step) => step.isPending && step.variables === which;
  return (
    <Card size="small" className="list-toolbar" title={<h2 className="card-title">{t('pay.title')}</h2>}>
      <Space wrap>
        <MonthInput aria-label={t('common.month')} value={month} onChange={(v) => setMonth(v ?? '')} />
        <Button disabled={!valid} loading={busy('generate')} onClick={() => step.mutate('generate')}>
          {t('pay.generate')}
        </Button>
        <Button disabled={!valid} loading={busy('taxes')} onClick={() => step.mutate('taxes')}>
          {t('pay.taxes')}
        </Button>
        <Button disabled={!valid} loading={busy('deductions')} onClick={() => step.mutate('deductions')}>
          {t('pay.deductions')}
        </Button>
        <Select<'CSV' | 'FIXED'>
          aria-label={t('pay.bankFormat')}
          value={format}
          onChange={setFormat}
          options={[
            { value: 'CSV', label: t('pay.csv') },
            { value: 'FIXED', label: t('pay.fixed') },
          ]}
        />
        <Button type="primary" disabled={!valid} loading={busy('transfer')} onClick={() => step.mutate('transfer')}>
          {t('pay.transfer')}
        </Button>
      </Space>
      {outcome && (
        <Alert
          className="run-steps"
          showIcon
          type={outcome.ok ? (outcome.skipped?.length ? 'warning' : 'success') : 'error'}
          role={outcome.ok ? 'status' : 'alert'}
          title={outcome.text}
          description={outcome.skipped?.length ? <SkippedAgents skipped={outcome.skipped} /> : undefined}
        />
      )}
      {file && (
        <Descriptions
          size="small"
          className="run-steps"
          items={[
            { key: 'file', label: t('pay.file'), children: <Button type="link" onClick={() => void download()}>{file.fileName}</Button> },
            { key: 'date', label: t('pay.transferDate'), children: formatDate(file.transferDate) },
            { key: 'count', label: t('pay.count'), children: file.count },
            { key: 'total', label: t('pay.total'), children: formatMoney(file.totalAmount) },
          ]}
        />
      )}
    </Card>
  );
}

/** The agents generate did not pay, each linked to the agent page where the bank account is entered. */
function SkippedAgents({ skipped }: { skipped: Skipped[] }) {
  const { t } = useI18n();
  const reasons: Record<Skipped['reason'], string> = { NO_BANK_ACCOUNT: t('pay.skip.NO_BANK_ACCOUNT') };
  return (
    <div className="pay-skipped">
      <p>{t('pay.skipped', { count: skipped.length })}</p>
      <ul>
        {skipped.map((s) => (
          <li key={s.settleId}>
            <Link to={`/org/agents/${s.agentId}`}>{s.agentName}</Link>: {reasons[s.reason]}
          </li>
        ))}
      </ul>
    </div>
  );
}

export default function PaymentsPage() {
  return <ResourcePage above={() => <PaymentSteps />} />;
}
