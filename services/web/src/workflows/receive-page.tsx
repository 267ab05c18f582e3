import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Form, Select, Space, Table, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api/client.js';
import { ApiError, toApiError, unwrap, type PageResponse } from '../api/envelope.js';
import { authFetch } from '../api/session.js';
import { useI18n } from '../i18n/i18n.js';
import { StatusTag } from '../shared/status-tag.js';
import { ErrorNotice } from '../resources/error-notice.js';
import { formatMoney, formatMonth } from '../shared/format.js';
import { MonthInput, monthPattern } from '../shared/month-input.js';
import ResourcePage from '../resources/resource-page.js';
import { useGrant } from '../shell/menus.js';
import { ParseErrorWorkbench } from './intake/parse-error-workbench.js';

interface Carrier {
  companyCode: string;
  companyName: string;
  expected: boolean;
  received: boolean;
  fileCount: number;
  rowCount: number;
  okCount: number;
  errorCount: number;
  openErrorCount: number;
  reportedAmount: string;
  reconStatus: string | null;
  diffAmount?: string | null;
}
interface ReceiveStatus {
  settleMonth: string;
  expectedCount: number;
  receivedCount: number;
  missing: string[];
  carriers: Carrier[];
}
interface UploadForm {
  companyCode: string;
  settleMonth: string;
  dataType?: string;
  replace?: boolean;
}

/** Multipart is sent by hand: the generated client types JSON bodies only. */
async function uploadFile(file: File, values: UploadForm) {
  const body = new FormData();
  body.append('companyCode', values.companyCode);
  body.append('settleMonth', values.settleMonth);
  if (values.dataType) body.append('dataType', values.dataType);
  if (values.replace) body.append('replace', 'true');
  body.append('file', file);
  const res = await authFetch(new Request('/api/receive/upload', { method: 'POST', body }));
  const json = (await res.json().catch(() => null)) as { success?: boolean; data?: { rowCount: number; receiveFileId: number } } | null;
  if (!res.ok || !json?.success) throw toApiError(json, res.status);
  return json.data!;
}

function ReceivePanel() {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const can = useGrant('RECEIVE_DATA');
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [month, setMonth] = useState(params.get('settleMonth') ?? '');
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [form] = Form.useForm<UploadForm>();

  const companies = useQuery({
    queryKey: ['companies', 'options'],
    queryFn: async () =>
      unwrap<PageResponse<{ companyCode: string; companyName: string }>>(
        await api.GET('/api/companies', { params: { query: { pageSize: 200 } as never } }),
      ),
  });
  const status = useQuery({
    queryKey: ['receive', 'status', month],
    enabled: monthPattern.test(month),
    queryFn: async () => unwrap<ReceiveStatus>(await api.GET('/api/receive/status', { params: { query: { settleMonth: month } } })),
  });
  const report = (err: unknown) =>
    void message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})${err.fieldErrors.length ? `: ${err.fieldErrors.map((e) => `${e.field} ${e.message}`).join('; ')}` : ''}` : String(err));
  const upload = useMutation({
    mutationFn: async (values: UploadForm) => {
      const file = files[0]?.originFileObj;
      if (!file) throw new Error(t('receive.chooseFile'));
      return uploadFile(file, values);
    },
    onSuccess: async (data, values) => {
      void message.success(t('receive.rowsReceived', { count: data.rowCount }));
      setFiles([]);
      setMonth(values.settleMonth);
      await queryClient.invalidateQueries();
    },
    onError: report,
  });
  const process = useMutation({
    mutationFn: async (companyCode: string) => unwrap(await api.POST('/api/receive/process', { body: { companyCode, settleMonth: month } })),
    onSuccess: async (_data, companyCode) => {
      const carrier = companies.data?.list.find((c) => c.companyCode === companyCode)?.companyName ?? companyCode;
      void message.success(t('receive.processed', { carrier, month: formatMonth(month) }));
      await queryClient.invalidateQueries();
    },
    onError: report,
  });

  return (
    <Space orientation="vertical" className="receive-panel">
      {can('UPDATE') && (
        <Card size="small" title={<h2 className="card-title">{t('receive.upload')}</h2>}>
          <Form form={form} layout="inline" name="receive-upload" onFinish={(v) => upload.mutate(v)}>
            <Form.Item name="companyCode" label={t('receive.carrier')} rules={[{ required: true, message: t('common.required') }]}>
              <Select
                className="filter-select"
                showSearch={{ optionFilterProp: 'label' }}
                options={(companies.data?.list ?? []).map((c) => ({ value: c.companyCode, label: `${c.companyName} (${c.companyCode})` }))}
              />
            </Form.Item>
            <Form.Item name="settleMonth" label={t('common.month')} rules={[{ required: true, pattern: monthPattern, message: t('common.monthInvalid') }]}>
              <MonthInput />
            </Form.Item>
            <Form.Item name="dataType" label={t('receive.dataType')}>
              <Select
                allowClear
                className="filter-select"
                placeholder={t('receive.dataTypeAny')}
                options={[
                  { value: 'RECRUIT', label: t('receive.type.RECRUIT') },
                  { value: 'MAINTAIN', label: t('receive.type.MAINTAIN') },
                ]}
              />
            </Form.Item>
            <Form.Item name="replace" valuePropName="checked">
              <Checkbox>{t('receive.replace')}</Checkbox>
            </Form.Item>
            <Upload
              beforeUpload={() => false}
              maxCount={1}
              fileList={files}
              onChange={({ fileList }) => setFiles(fileList)}
              accept=".xlsx,.csv"
            >
              <Button icon={<UploadOutlined />}>{t('receive.file')}</Button>
            </Upload>
            <Button type="primary" htmlType="submit" loading={upload.isPending} disabled={files.length === 0}>
              {t('receive.uploadButton')}
            </Button>
          </Form>
        </Card>
      )}
      <Card
        size="small"
        title={<h2 className="card-title">{t('receive.perCarrier')}</h2>}
        extra={<MonthInput aria-label={t('common.month')} value={month} onChange={(v) => setMonth(v ?? '')} />}
      >
        {status.error ? <ErrorNotice error={status.error} /> : null}
        <Table<Carrier>
          rowKey="companyCode"
          size="small"
          loading={status.isFetching}
          dataSource={status.data?.carriers ?? []}
          pagination={false}
          columns={[
            { key: 'carrier', title: t('receive.carrier'), render: (_: unknown, c) => `${c.companyName} (${c.companyCode})` },
            { key: 'received', title: t('receive.received'), render: (_: unknown, c) => (c.received ? <StatusTag status="RECEIVED" /> : c.expected ? <StatusTag status="MISSING" /> : '-') },
            { key: 'files', dataIndex: 'fileCount', title: t('receive.files'), align: 'right' },
            { key: 'rows', dataIndex: 'rowCount', title: t('receive.rows'), align: 'right' },
            { key: 'ok', dataIndex: 'okCount', title: t('receive.parsed'), align: 'right' },
            { key: 'errors', dataIndex: 'openErrorCount', title: t('receive.openErrors'), align: 'right' },
            { key: 'amount', dataIndex: 'reportedAmount', title: t('receive.reported'), align: 'right', render: (v: string) => formatMoney(v) },
            { key: 'recon', dataIndex: 'reconStatus', title: t('receive.recon'), render: (v: string | null) => (v ? <StatusTag status={v} /> : '-') },
            {
              key: 'process',
              title: t('common.actions'),
              render: (_: unknown, c) =>
                can('UPDATE') && c.received ? (
                  <Button size="small" onClick={() => process.mutate(c.companyCode)} loading={process.isPending && process.variables === c.companyCode}>
                    {t('receive.process')}
                  </Button>
                ) : null,
            },
          ]}
        />
      </Card>
    </Space>
  );
}

/**
 * Received data: upload and per-carrier status by hand, the parse-error workbench, then the generic
 * lists of files and raw rows.
 */
export default function ReceivePage() {
  return <ResourcePage above={() => <ReceivePanel />} listOf={(resource) => (resource.path === '/api/receive/errors' ? <ParseErrorWorkbench /> : undefined)} />;
}
