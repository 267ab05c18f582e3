import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, downloadFile } from '../api/client.js';
import { ApiError, unwrap } from '../api/envelope.js';
import type { paths } from '../api/schema';
import { useI18n } from '../i18n/i18n.js';
import { formatDecimal } from '../resources/field-value.js';
import ResourcePage from '../resources/resource-page.js';
import { useGrant } from '../shell/menus.js';

type TransferFile = paths['/api/payments/transfer-file']['post']['responses'][200]['content']['application/json']['data'];
type Step = 'generate' | 'taxes' | 'deductions' | 'transfer';

/** The month's payment steps in order: generate, taxes, deductions, transfer file (then download it). */
function PaymentSteps() {
  const { t, errorText } = useI18n();
  const can = useGrant('PAYMENT');
  // The outcome of the last step stays on screen: a refusal can list many agents to fix.
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [month, setMonth] = useState(params.get('settleMonth') ?? '');
  const [format, setFormat] = useState<'CSV' | 'FIXED'>('CSV');
  const [file, setFile] = useState<TransferFile | null>(null);
  const valid = /^\d{6}$/.test(month);
  const query = { params: { query: { settleMonth: month } } };

  const step = useMutation({
    mutationFn: async (which: Step): Promise<string> => {
      switch (which) {
        case 'generate':
          return `${unwrap<number>(await api.POST('/api/payments/generate', query))} payments generated`;
        case 'taxes':
          return `${unwrap<{ calculated: number }>(await api.POST('/api/payments/calculate-taxes', query)).calculated} payments taxed`;
        case 'deductions': {
          const d = unwrap<{ payments: number; deductions: number; deductionSum: string }>(await api.POST('/api/payments/apply-deductions', query));
          return `${d.deductions} deductions (${formatDecimal(d.deductionSum)}) applied to ${d.payments} payments`;
        }
        case 'transfer': {
          const f = unwrap<TransferFile>(await api.POST('/api/payments/transfer-file', { body: { settleMonth: month, bankFormat: format } }));
          setFile(f);
          return `${f.count} payments in ${f.fileName}`;
        }
      }
    },
    onMutate: () => setOutcome(null),
    onSuccess: async (text) => {
      setOutcome({ ok: true, text });
      await queryClient.invalidateQueries({ queryKey: ['list'] });
    },
    onError: (err) => setOutcome({ ok: false, text: err instanceof ApiError ? `${err.message} (${err.code})` : String(err) }),
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
    <Card size="small" className="list-toolbar" title={<h2 className="card-title">Pay a month</h2>}>
      <Space wrap>
        <Input aria-label={t('common.month')} placeholder="YYYYMM" maxLength={6} value={month} onChange={(e) => setMonth(e.target.value)} />
        <Button disabled={!valid} loading={busy('generate')} onClick={() => step.mutate('generate')}>
          1. Generate payments
        </Button>
        <Button disabled={!valid} loading={busy('taxes')} onClick={() => step.mutate('taxes')}>
          2. Calculate taxes
        </Button>
        <Button disabled={!valid} loading={busy('deductions')} onClick={() => step.mutate('deductions')}>
          3. Apply deductions
        </Button>
        <Select<'CSV' | 'FIXED'>
          aria-label="Bank format"
          value={format}
          onChange={setFormat}
          options={[
            { value: 'CSV', label: 'CSV' },
            { value: 'FIXED', label: 'Fixed width' },
          ]}
        />
        <Button type="primary" disabled={!valid} loading={busy('transfer')} onClick={() => step.mutate('transfer')}>
          4. Write transfer file
        </Button>
      </Space>
      {outcome && (
        <Alert className="run-steps" showIcon type={outcome.ok ? 'success' : 'error'} role={outcome.ok ? 'status' : 'alert'} title={outcome.text} />
      )}
      {file && (
        <Descriptions
          size="small"
          className="run-steps"
          items={[
            { key: 'file', label: 'File', children: <Button type="link" onClick={() => void download()}>{file.fileName}</Button> },
            { key: 'date', label: 'Transfer date', children: file.transferDate },
            { key: 'count', label: 'Payments', children: file.count },
            { key: 'total', label: 'Total', children: formatDecimal(file.totalAmount) },
          ]}
        />
      )}
    </Card>
  );
}

export default function PaymentsPage() {
  return <ResourcePage above={() => <PaymentSteps />} />;
}
