import { UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Descriptions, Form, Input, Radio, Select, Space, Steps, Table, Typography, Upload, type TableProps, type UploadFile } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client.js';
import { ApiError, unwrap } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { formatMoney } from '../../shared/format.js';
import { PageTitle } from '../../resources/resource-page.js';
import { StatusTag } from '../../shared/status-tag.js';
import { useCurrentPage, useGrant } from '../../shell/menus.js';
import { firstDayOf, LEDGER_OF, testParse, useCompanies, useFieldMappings, useProfiles, type DataType, type TestParseResult } from './intake-api.js';
import { columnLetter, guessTargets, planChanges, TARGET_FIELDS, wantedMappings, type ColumnChoice, type TargetField } from './mapping-plan.js';

type Row = TestParseResult['rows'][number];

function ParseSummary({ result }: { result: TestParseResult }) {
  const { t } = useI18n();
  const { missing, moved, renamed } = result.layout;
  const layout = [
    ...missing.map((m) => t('mapping.layoutMissing', { column: m })),
    ...moved.map((m) => t('mapping.layoutMoved', { column: m.column, expected: m.expected, found: m.found })),
    ...renamed.map((m) => t('mapping.layoutRenamed', { position: m.position, expected: m.expected, found: m.found })),
  ];
  return (
    <Space orientation="vertical" className="full-width">
      <Descriptions
        size="small"
        column={{ xs: 1, md: 4 }}
        className="parse-summary"
        items={[
          { key: 'read', label: t('mapping.rowsRead'), children: result.rowsRead },
          { key: 'ok', label: t('mapping.okRows'), children: result.okCount },
          { key: 'error', label: t('mapping.errorRows'), children: result.errorCount },
          {
            key: 'types',
            label: t('intake.errorType'),
            children: Object.entries(result.errorTypes).map(([type, n]) => `${type} ${n}`).join(', ') || '-',
          },
        ]}
      />
      {layout.length > 0 && <Alert type="warning" showIcon title={t('mapping.layoutProblems')} description={<ul className="failure-list">{layout.map((l) => <li key={l}>{l}</li>)}</ul>} />}
    </Space>
  );
}

function PreviewTable({ result }: { result: TestParseResult }) {
  const { t } = useI18n();
  const columns: TableProps<Row>['columns'] = [
    { key: 'row', dataIndex: 'rowNumber', title: t('intake.row') },
    { key: 'status', dataIndex: 'status', title: t('common.status'), render: (s: string) => <StatusTag status={s} /> },
    { key: 'policy', title: t('mapping.policyNo'), render: (_: unknown, r) => r.mapped?.policyNo ?? '-' },
    { key: 'agent', title: t('org.agentId'), render: (_: unknown, r) => r.mapped?.agentId ?? '-' },
    { key: 'year', title: t('mapping.commissionYear'), render: (_: unknown, r) => r.mapped?.commissionYear ?? '-' },
    { key: 'premium', title: t('mapping.premium'), align: 'right', render: (_: unknown, r) => (r.mapped?.reportedPremium ? formatMoney(r.mapped.reportedPremium) : '-') },
    { key: 'amount', title: t('mapping.companyAmount'), align: 'right', render: (_: unknown, r) => (r.mapped?.reportedCompanyAmount ? formatMoney(r.mapped.reportedCompanyAmount) : '-') },
    { key: 'error', title: t('intake.message'), render: (_: unknown, r) => (r.error ? `${r.error.errorType}: ${r.error.message}` : '') },
  ];
  return <Table<Row> className="parse-preview" rowKey="rowNumber" size="small" columns={columns} dataSource={result.rows} pagination={{ pageSize: 20 }} />;
}

/**
 * The carrier mapping wizard (receive/mapping, RECEIVE_MAPPING): pick a carrier profile, read a
 * sample file through POST /api/mapping/{companyCode}/test-parse, map its columns to ledger fields,
 * save the mapping as new versions from the sample month on, and see the same sample parsed with it
 * (test-parse reads saved mappings only, so the preview of a mapping comes after its save).
 */
export default function MappingWizardPage() {
  const { t, errorText } = useI18n();
  const page = useCurrentPage();
  const can = useGrant('RECEIVE_MAPPING');
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const profiles = useProfiles();
  const companies = useCompanies();
  const [step, setStep] = useState(0);
  const [companyCode, setCompanyCode] = useState<string | undefined>(params.get('companyCode') ?? undefined);
  const [month, setMonth] = useState(params.get('settleMonth') ?? '');
  const [dataType, setDataType] = useState<DataType>('RECRUIT');
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [sample, setSample] = useState<TestParseResult | null>(null);
  const [choices, setChoices] = useState<ColumnChoice[]>([]);
  const [pin, setPin] = useState(true);
  const [effectiveFrom, setEffectiveFrom] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saveFailures, setSaveFailures] = useState<string[]>([]);
  const [preview, setPreview] = useState<TestParseResult | null>(null);
  const saved = useFieldMappings(companyCode, LEDGER_OF[dataType]);
  const profile = (profiles.data ?? []).find((p) => p.companyCode === companyCode);
  const file = files[0]?.originFileObj;

  // The saved mapping wins over the guess; a column keeps the field it feeds today.
  useEffect(() => {
    if (!sample) return;
    const guess = guessTargets(sample.header);
    const current = saved.data ?? [];
    setChoices(
      sample.header.map((h, i) => {
        const m = current.find((s) => s.sourceField === h);
        return m
          ? { target: m.targetField as TargetField, transformRule: m.transformRule ?? undefined, isRequired: m.isRequired ?? undefined }
          : current.length
            ? {}
            : { target: guess[i] };
      }),
    );
  }, [sample, saved.data]);

  const readSample = async () => {
    if (!companyCode || !file) return;
    setBusy(true);
    setError(null);
    try {
      const result = await testParse(companyCode, { settleMonth: month, dataType }, file);
      setSample(result);
      setEffectiveFrom(firstDayOf(month));
      setPreview(null);
      setStep(2);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const plan = sample ? wantedMappings(sample.header, choices, pin) : { wanted: [], problems: [] };
  const changes = planChanges(
    (saved.data ?? []).map((m) => ({ ...m, targetField: m.targetField, sourceColIndex: m.sourceColIndex ?? null, transformRule: m.transformRule ?? null, dataType: m.dataType ?? null, isRequired: m.isRequired ?? null })),
    plan.wanted,
  );

  const save = async () => {
    if (!companyCode || !file) return;
    setBusy(true);
    setError(null);
    const failures: string[] = [];
    const table = LEDGER_OF[dataType];
    for (const w of changes.save) {
      try {
        unwrap(
          await api.POST('/api/mapping/{companyCode}/fields', {
            params: { path: { companyCode } },
            body: {
              targetTable: table,
              targetField: w.targetField,
              sourceField: w.sourceField,
              sourceColIndex: w.sourceColIndex,
              dataType: w.dataType,
              transformRule: w.transformRule,
              isRequired: w.isRequired,
              sortOrder: w.sortOrder,
              effectiveFrom,
            },
          }),
        );
      } catch (err) {
        failures.push(describe(w.targetField, err));
      }
    }
    for (const s of changes.end) {
      try {
        unwrap(await api.DELETE('/api/mapping/{companyCode}/fields/{id}', { params: { path: { companyCode, id: s.mappingId }, query: { effectiveFrom } } }));
      } catch (err) {
        failures.push(describe(s.targetField, err));
      }
    }
    setSaveFailures(failures);
    await queryClient.invalidateQueries({ queryKey: ['list', '/api/mapping/:companyCode/fields'] });
    try {
      setPreview(await testParse(companyCode, { settleMonth: month, dataType }, file));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  function describe(field: string, err: unknown): string {
    if (!(err instanceof ApiError)) return `${field}: ${String(err)}`;
    const detail = err.fieldErrors.length ? err.fieldErrors.map((e) => `${e.field} ${e.message}`).join('; ') : err.message;
    return `${field}: ${errorText(err.code, err.message)} (${err.code}) ${detail}`;
  }

  const setChoice = (i: number, patch: Partial<ColumnChoice>) => setChoices((list) => list.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const targetLabel = (f: TargetField) => t(`mapping.target.${f}`);

  const columns: TableProps<{ i: number; name: string }>['columns'] = [
    { key: 'col', title: t('mapping.column'), render: (_: unknown, c) => columnLetter(c.i) },
    { key: 'name', dataIndex: 'name', title: t('mapping.header') },
    {
      key: 'sample',
      title: t('mapping.sampleValues'),
      render: (_: unknown, c) => (sample?.rows ?? []).slice(0, 3).map((r) => r.rawContent[c.name] ?? '').join(' · '),
    },
    {
      key: 'target',
      title: t('mapping.targetField'),
      render: (_: unknown, c) => (
        <Select
          allowClear
          className="filter-select-wide"
          aria-label={t('mapping.targetOf', { column: c.name })}
          placeholder={t('mapping.notMapped')}
          value={choices[c.i]?.target}
          onChange={(v?: TargetField) => setChoice(c.i, { target: v })}
          options={TARGET_FIELDS.map((f) => ({ value: f, label: `${targetLabel(f)} (${f})` }))}
        />
      ),
    },
    {
      key: 'rule',
      title: t('mapping.transformRule'),
      render: (_: unknown, c) => (
        <Input
          aria-label={t('mapping.ruleOf', { column: c.name })}
          placeholder="TRIM|UPPER, DIVIDE:100, DATE:yyyyMMdd"
          disabled={!choices[c.i]?.target}
          value={choices[c.i]?.transformRule ?? ''}
          onChange={(e) => setChoice(c.i, { transformRule: e.target.value })}
        />
      ),
    },
    {
      key: 'required',
      title: t('mapping.required'),
      render: (_: unknown, c) => (
        <Checkbox
          aria-label={t('mapping.requiredOf', { column: c.name })}
          disabled={!choices[c.i]?.target}
          checked={choices[c.i]?.isRequired ?? choices[c.i]?.target === 'policy_no'}
          onChange={(e) => setChoice(c.i, { isRequired: e.target.checked })}
        />
      ),
    },
  ];

  const monthOk = /^\d{6}$/.test(month);
  return (
    <>
      {page && <PageTitle page={page} />}
      <Typography.Paragraph>
        <Link to="/receive/mapping">{t('mapping.backToLists')}</Link>
      </Typography.Paragraph>
      <Steps
        className="wizard-steps"
        current={step}
        items={[{ title: t('mapping.stepCarrier') }, { title: t('mapping.stepSample') }, { title: t('mapping.stepColumns') }, { title: t('mapping.stepSave') }]}
      />
      {error ? <ErrorNotice error={error} /> : null}
      {step === 0 && (
        <Card size="small" title={<h2 className="card-title">{t('mapping.stepCarrier')}</h2>}>
          {profiles.error ? <ErrorNotice error={profiles.error} /> : null}
          {!profiles.isLoading && (profiles.data ?? []).length === 0 && (
            <Alert type="info" showIcon title={t('mapping.noProfiles')} action={can('CREATE') ? <Link to="/receive/mapping/new?resource=CompanyProfile">{t('common.create')}</Link> : undefined} />
          )}
          <Form layout="vertical" name="wizard-carrier" className="dialog-form">
            <Form.Item label={t('mapping.profile')} htmlFor="wizard-profile">
              <Select
                id="wizard-profile"
                loading={profiles.isLoading}
                value={companyCode}
                onChange={(v: string) => setCompanyCode(v)}
                showSearch={{ optionFilterProp: 'label' }}
                options={[
                  ...(profiles.data ?? []).map((p) => ({
                    value: p.companyCode,
                    label: `${p.companyName ?? p.companyCode} (${p.companyCode}) · ${p.dataFormat} · ${p.fileEncoding}`,
                    disabled: p.isActive === false,
                  })),
                  // Every carrier is listed: one without a profile is picked to be told how to start.
                  ...(companies.data ?? [])
                    .filter((c) => !(profiles.data ?? []).some((p) => p.companyCode === c.companyCode))
                    .map((c) => ({ value: c.companyCode, label: `${c.companyName} (${c.companyCode}) · ${t('mapping.noProfileTag')}` })),
                ]}
              />
            </Form.Item>
          </Form>
          {companyCode && !profile && !profiles.isLoading && (
            <Alert
              type="info"
              showIcon
              title={t('mapping.noProfileFor', { name: companies.data?.find((c) => c.companyCode === companyCode)?.companyName ?? companyCode })}
              action={can('CREATE') ? <Link to="/receive/mapping/new?resource=CompanyProfile">{t('common.create')}</Link> : undefined}
            />
          )}
          {profile && (
            <Descriptions
              size="small"
              column={{ xs: 1, md: 3 }}
              items={[
                { key: 'format', label: t('mapping.format'), children: profile.dataFormat },
                { key: 'encoding', label: t('mapping.encoding'), children: profile.fileEncoding },
                { key: 'delimiter', label: t('mapping.delimiter'), children: profile.delimiter ?? ',' },
                { key: 'header', label: t('mapping.headerRow'), children: profile.headerRow },
                { key: 'start', label: t('mapping.dataStartRow'), children: profile.dataStartRow },
                { key: 'sheet', label: t('mapping.sheet'), children: profile.sheetName ?? '-' },
              ]}
            />
          )}
          <Button type="primary" disabled={!profile} onClick={() => setStep(1)}>
            {t('mapping.next')}
          </Button>
        </Card>
      )}
      {step === 1 && (
        <Card size="small" title={<h2 className="card-title">{t('mapping.stepSample')}</h2>}>
          <Form layout="vertical" name="wizard-sample" className="dialog-form">
            <Form.Item label={t('common.month')} htmlFor="wizard-month" validateStatus={month && !monthOk ? 'error' : undefined} help={month && !monthOk ? 'YYYYMM' : undefined}>
              <Input id="wizard-month" placeholder="YYYYMM" maxLength={6} value={month} onChange={(e) => setMonth(e.target.value.trim())} />
            </Form.Item>
            <Form.Item label={t('mapping.dataType')}>
              <Radio.Group
                value={dataType}
                onChange={(e) => setDataType(e.target.value as DataType)}
                options={[
                  { value: 'RECRUIT', label: 'RECRUIT' },
                  { value: 'MAINTAIN', label: 'MAINTAIN' },
                ]}
              />
            </Form.Item>
            <Form.Item label={t('mapping.sampleFile')}>
              <Upload beforeUpload={() => false} maxCount={1} fileList={files} onChange={({ fileList }) => setFiles(fileList)} accept=".xlsx,.csv">
                <Button icon={<UploadOutlined />}>{t('mapping.chooseFile')}</Button>
              </Upload>
            </Form.Item>
          </Form>
          <Space>
            <Button onClick={() => setStep(0)}>{t('common.back')}</Button>
            <Button type="primary" loading={busy} disabled={!file || !monthOk} onClick={() => void readSample()}>
              {t('mapping.readSample')}
            </Button>
          </Space>
        </Card>
      )}
      {step === 2 && sample && (
        <Card size="small" title={<h2 className="card-title">{t('mapping.stepColumns')}</h2>}>
          <Typography.Paragraph>{t('mapping.currentResult', { count: (saved.data ?? []).length })}</Typography.Paragraph>
          <ParseSummary result={sample} />
          {plan.problems.length > 0 && <Alert type="warning" showIcon className="form-alert" title={plan.problems.join('; ')} />}
          <Table<{ i: number; name: string }>
            className="mapping-columns"
            rowKey="i"
            size="small"
            pagination={false}
            columns={columns}
            dataSource={sample.header.map((name, i) => ({ i, name }))}
            scroll={{ x: 'max-content' }}
          />
          <Checkbox checked={pin} onChange={(e) => setPin(e.target.checked)} className="wizard-option">
            {t('mapping.pinColumns')}
          </Checkbox>
          <Space>
            <Button onClick={() => setStep(1)}>{t('common.back')}</Button>
            <Button type="primary" disabled={plan.problems.length > 0} onClick={() => setStep(3)}>
              {t('mapping.next')}
            </Button>
          </Space>
        </Card>
      )}
      {step === 3 && sample && (
        <Card size="small" title={<h2 className="card-title">{t('mapping.stepSave')}</h2>}>
          <Form layout="vertical" name="wizard-save" className="dialog-form">
            <Form.Item label={t('mapping.effectiveFrom')} htmlFor="wizard-from" extra={t('mapping.effectiveFromHelp', { month })}>
              <Input id="wizard-from" type="date" value={effectiveFrom} onChange={(e) => setEffectiveFrom(e.target.value)} />
            </Form.Item>
          </Form>
          <ul className="change-list" aria-label={t('mapping.changes')}>
            {changes.save.map((w) => (
              <li key={`save-${w.targetField}`}>{t('mapping.changeSave', { target: w.targetField, source: w.sourceField })}</li>
            ))}
            {changes.end.map((s) => (
              <li key={`end-${s.targetField}`}>{t('mapping.changeEnd', { target: s.targetField })}</li>
            ))}
            {changes.save.length + changes.end.length === 0 && <li>{t('mapping.noChanges')}</li>}
          </ul>
          <Space className="list-toolbar">
            <Button onClick={() => setStep(2)}>{t('common.back')}</Button>
            {can('CREATE') && (
              <Button type="primary" loading={busy} disabled={!effectiveFrom} onClick={() => void save()}>
                {t('mapping.saveAndPreview')}
              </Button>
            )}
          </Space>
          {saveFailures.length > 0 && (
            <Alert type="error" role="alert" showIcon className="form-alert" title={t('mapping.saveFailed')} description={<ul className="failure-list">{saveFailures.map((f) => <li key={f}>{f}</li>)}</ul>} />
          )}
          {preview && (
            <section aria-label={t('mapping.preview')} className="mapping-preview">
              <h3 className="card-title">{t('mapping.preview')}</h3>
              <ParseSummary result={preview} />
              <PreviewTable result={preview} />
              <Link to={`/receive/mapping?resource=FieldMapping&companyCode=${encodeURIComponent(companyCode ?? '')}`}>{t('mapping.openMappings')}</Link>
            </section>
          )}
        </Card>
      )}
    </>
  );
}
