import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Form, Input, Select, Space, Table, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api/client.js';
import { ApiError, toApiError, unwrap, type PageResponse } from '../api/envelope.js';
import { authFetch } from '../api/session.js';
import { useI18n } from '../i18n/i18n.js';
import { StatusTag } from '../shared/status-tag.js';
import { ErrorNotice } from '../resources/error-notice.js';
import { formatDecimal } from '../resources/field-value.js';
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
    enabled: /^\d{6}$/.test(month),
    queryFn: async () => unwrap<ReceiveStatus>(await api.GET('/api/receive/status', { params: { query: { settleMonth: month } } })),
  });
  const report = (err: unknown) =>
    void message.error(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})${err.fieldErrors.length ? `: ${err.fieldErrors.map((e) => `${e.field} ${e.message}`).join('; ')}` : ''}` : String(err));
  const upload = useMutation({
    mutationFn: async (values: UploadForm) => {
      const file = files[0]?.originFileObj;
      if (!file) throw new Error('Choose a file');
      return uploadFile(file, values);
    },
    onSuccess: async (data, values) => {
      void message.success(`${data.rowCount} rows received`);
      setFiles([]);
      setMonth(values.settleMonth);
      await queryClient.invalidateQueries();
    },
    onError: report,
  });
  const process = useMutation({
    mutationFn: async (companyCode: string) => unwrap(await api.POST('/api/receive/process', { body: { companyCode, settleMonth: month } })),
    onSuccess: () => queryClient.invalidateQueries(),
    onError: report,
  });

  return (
    <Space orientation="vertical" className="receive-panel">
      {can('UPDATE') && (
        <Card size="small" title={<h2 className="card-title">Upload a carrier file</h2>}>
          <Form form={form} layout="inline" name="receive-upload" onFinish={(v) => upload.mutate(v)}>
            <Form.Item name="companyCode" label="Carrier" rules={[{ required: true, message: t('login.required') }]}>
              <Select
                className="filter-select"
                options={(companies.data?.list ?? []).map((c) => ({ value: c.companyCode, label: `${c.companyName} (${c.companyCode})` }))}
              />
            </Form.Item>
            <Form.Item name="settleMonth" label={t('common.month')} rules={[{ required: true, pattern: /^\d{6}$/, message: 'YYYYMM' }]}>
              <Input placeholder="YYYYMM" maxLength={6} />
            </Form.Item>
            <Form.Item name="dataType" label="Data type">
              <Input placeholder="RECRUIT / MAINTAIN" />
            </Form.Item>
            <Form.Item name="replace" valuePropName="checked">
              <Checkbox>Replace an earlier file</Checkbox>
            </Form.Item>
            <Upload
              beforeUpload={() => false}
              maxCount={1}
              fileList={files}
              onChange={({ fileList }) => setFiles(fileList)}
              accept=".xlsx,.csv"
            >
              <Button icon={<UploadOutlined />}>File</Button>
            </Upload>
            <Button type="primary" htmlType="submit" loading={upload.isPending} disabled={files.length === 0}>
              Upload
            </Button>
          </Form>
        </Card>
      )}
      <Card
        size="small"
        title={<h2 className="card-title">Received per carrier</h2>}
        extra={<Input aria-label={t('common.month')} placeholder="YYYYMM" value={month} maxLength={6} onChange={(e) => setMonth(e.target.value)} />}
      >
        {status.error ? <ErrorNotice error={status.error} /> : null}
        <Table<Carrier>
          rowKey="companyCode"
          size="small"
          loading={status.isFetching}
          dataSource={status.data?.carriers ?? []}
          pagination={false}
          columns={[
            { key: 'carrier', title: 'Carrier', render: (_: unknown, c) => `${c.companyName} (${c.companyCode})` },
            { key: 'received', title: 'Received', render: (_: unknown, c) => (c.received ? <StatusTag status="RECEIVED" /> : c.expected ? <StatusTag status="MISSING" /> : '-') },
            { key: 'files', dataIndex: 'fileCount', title: 'Files', align: 'right' },
            { key: 'rows', dataIndex: 'rowCount', title: 'Rows', align: 'right' },
            { key: 'ok', dataIndex: 'okCount', title: 'Parsed', align: 'right' },
            { key: 'errors', dataIndex: 'openErrorCount', title: 'Open errors', align: 'right' },
            { key: 'amount', dataIndex: 'reportedAmount', title: 'Reported', align: 'right', render: (v: string) => formatDecimal(v) },
            { key: 'recon', dataIndex: 'reconStatus', title: 'Reconciliation' },
            {
              key: 'process',
              title: t('common.actions'),
              render: (_: unknown, c) =>
                can('UPDATE') && c.received ? (
                  <Button size="small" onClick={() => process.mutate(c.companyCode)} loading={process.isPending && process.variables === c.companyCode}>
                    Process
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
