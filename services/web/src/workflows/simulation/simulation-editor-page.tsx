import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Form, Input, Radio, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { placeFieldErrors } from '../../resources/field-errors.js';
import { RefSelect } from '../../resources/ref-select.js';
import { MonthInput, monthPattern } from '../../shared/month-input.js';
import { Loading } from '../../shell/app-layout.js';
import { useCurrentPage } from '../../shell/menus.js';
import {
  createSimulation,
  getSimulation,
  updateSimulation,
  type ScopeType,
  type SimulationInput,
} from './simulation-api.js';
import { RuleChangeCard, useRuleTables } from './rule-change-card.js';
import { formFieldPath, isChangeable, toChangeInput, toDraft, type ChangeDraft } from './simulation-model.js';
import './simulation.css';

interface EditorValues {
  name?: string;
  baseMonth?: string;
  scopeType?: ScopeType;
  scopeOrgId?: number;
  scopeAgentIds?: number[];
  changes?: ChangeDraft[];
}

const ORG_FIELD = { key: 'scopeOrgId', kind: 'ref', ref: { resource: 'Organization', picker: 'tree' as const } };
const AGENT_FIELD = { key: 'scopeAgentIds', kind: 'ref', ref: { resource: 'Agent', labelField: 'agentName', picker: 'search' as const } };

export function toInput(v: EditorValues): SimulationInput {
  const scopeType = v.scopeType ?? 'ALL';
  return {
    name: (v.name ?? '').trim(),
    baseMonth: v.baseMonth ?? '',
    scopeType,
    ...(scopeType === 'ORG' && v.scopeOrgId != null ? { scopeOrgId: v.scopeOrgId } : {}),
    ...(scopeType === 'AGENTS' ? { scopeAgentIds: v.scopeAgentIds ?? [] } : {}),
    changes: (v.changes ?? []).map(toChangeInput),
  };
}

/** A new simulation, or the name, scope and changes of one not running (its results are discarded on save). */
export default function SimulationEditorPage() {
  const { t, errorText } = useI18n();
  const { simId } = useParams();
  const id = simId ? Number(simId) : undefined;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const page = useCurrentPage();
  const base = page ? `/${page.path}` : '/rules/simulations';
  const [form] = Form.useForm<EditorValues>();
  const [failure, setFailure] = useState<{ text: string; rest: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const scopeType = (Form.useWatch('scopeType', form) as ScopeType | undefined) ?? 'ALL';
  const baseMonth = Form.useWatch('baseMonth', form) as string | undefined;
  const tables = useRuleTables();
  const existing = useQuery({ queryKey: ['simulations', 'detail', id], enabled: id !== undefined, queryFn: () => getSimulation(id!) });

  useEffect(() => {
    const s = existing.data;
    if (!s) return;
    form.setFieldsValue({
      name: s.name,
      baseMonth: s.baseMonth,
      scopeType: s.scopeType,
      ...(s.scopeOrgId != null ? { scopeOrgId: s.scopeOrgId } : {}),
      scopeAgentIds: s.scopeAgentIds,
      changes: s.changes.map((c) =>
        toDraft({ ruleTable: c.ruleTable, action: c.action, ...(c.targetId != null ? { targetId: c.targetId } : {}), ...(c.values ? { values: c.values } : {}), ...(c.endDate ? { endDate: c.endDate } : {}) }),
      ),
    });
  }, [existing.data, form]);

  if (id !== undefined && existing.isLoading) return <Loading />;
  if (existing.error) return <ErrorNotice error={existing.error} />;
  const locked = existing.data ? !isChangeable(existing.data.status) : false;

  const submit = async (values: EditorValues) => {
    setBusy(true);
    setFailure(null);
    try {
      const body = toInput(values);
      let target = id;
      if (id !== undefined) await updateSimulation(id, body);
      else target = await createSimulation(body);
      await queryClient.invalidateQueries({ queryKey: ['simulations'] });
      await navigate(`${base}/${target}`);
    } catch (err) {
      if (err instanceof ApiError) {
        const normalized = new ApiError(err.code, err.message, err.status, err.fieldErrors.map((e) => ({ ...e, field: formFieldPath(e.field) })));
        const rest = placeFieldErrors(form, normalized, ['name', 'baseMonth', 'scopeType', 'scopeOrgId', 'scopeAgentIds', 'changes']);
        setFailure({ text: `${errorText(err.code, err.message)} (${err.code})`, rest: rest.map((e) => `${e.field}: ${e.message}`) });
      } else setFailure({ text: t('error.network'), rest: [] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sim-editor" aria-label={t('sim.editorLabel')}>
      <h1 className="page-title">{id === undefined ? t('sim.newTitle') : t('sim.editTitle', { name: existing.data?.name ?? '' })}</h1>
      <Typography.Paragraph type="secondary">{t('sim.editorIntro')}</Typography.Paragraph>
      {existing.data && isChangeable(existing.data.status) && existing.data.status !== 'DRAFT' && (
        <Alert type="info" showIcon className="list-toolbar" title={t('sim.editDiscards')} />
      )}
      {locked && <Alert type="warning" showIcon className="list-toolbar" title={t('sim.locked')} />}
      {failure && <Alert type="error" role="alert" showIcon className="form-alert" title={failure.text} description={failure.rest.length ? failure.rest.join('; ') : undefined} />}
      {tables.error ? <ErrorNotice error={tables.error} /> : null}
      <Form<EditorValues> form={form} name="simulation-form" layout="vertical" onFinish={submit} disabled={locked} initialValues={{ scopeType: 'ALL', changes: [] }}>
        <div className="sim-editor-head">
          <Form.Item name="name" label={t('sim.name')} rules={[{ required: true, whitespace: true, message: t('login.required') }, { max: 100 }]}>
            <Input maxLength={100} placeholder={t('sim.namePlaceholder')} />
          </Form.Item>
          <Form.Item
            name="baseMonth"
            label={t('sim.baseMonth')}
            extra={t('sim.baseMonthHint')}
            rules={[{ required: true, message: t('login.required') }, { pattern: monthPattern, message: t('sim.monthFormat') }]}
          >
            <MonthInput />
          </Form.Item>
        </div>
        <Form.Item name="scopeType" label={t('sim.scope')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'ALL', label: t('sim.scopeAll') },
              { value: 'ORG', label: t('sim.scopeOrg') },
              { value: 'AGENTS', label: t('sim.scopeAgents') },
            ]}
          />
        </Form.Item>
        {scopeType === 'ORG' && (
          <Form.Item name="scopeOrgId" label={t('sim.scopeOrgPick')} extra={t('sim.scopeOrgHint')} rules={[{ required: true, message: t('login.required') }]}>
            <RefSelect field={ORG_FIELD} className="sim-scope-select" />
          </Form.Item>
        )}
        {scopeType === 'AGENTS' && (
          <Form.Item name="scopeAgentIds" label={t('sim.scopeAgentsPick')} rules={[{ required: true, type: 'array', min: 1, message: t('login.required') }]}>
            <RefSelect field={AGENT_FIELD} multiple className="sim-scope-select" />
          </Form.Item>
        )}
        <h2 className="card-title">{t('sim.changes')}</h2>
        <Typography.Paragraph type="secondary">{t('sim.changesIntro')}</Typography.Paragraph>
        <Form.List
          name="changes"
          rules={[
            {
              validator: async (_r, value: unknown[] | undefined) => {
                if (!value || value.length === 0) throw new Error(t('sim.needChange'));
              },
            },
          ]}
        >
          {(items, { add, remove }, { errors }) => (
            <>
              {items.length === 0 && <Empty description={t('sim.noChanges')} image={Empty.PRESENTED_IMAGE_SIMPLE} />}
              {items.map((item) => (
                <RuleChangeCard
                  key={item.key}
                  form={form}
                  index={item.name}
                  baseMonth={baseMonth}
                  onRemove={() => remove(item.name)}
                />
              ))}
              <Form.ErrorList errors={errors} />
              <Button icon={<PlusOutlined />} onClick={() => add({ action: 'ADD' })} className="list-toolbar">
                {t('sim.addChange')}
              </Button>
            </>
          )}
        </Form.List>
        <Space className="sim-editor-actions">
          <Button type="primary" htmlType="submit" loading={busy}>
            {t('common.save')}
          </Button>
          <Button disabled={false} onClick={() => void navigate(id === undefined ? base : `${base}/${id}`)}>
            {t('common.cancel')}
          </Button>
        </Space>
      </Form>
    </section>
  );
}
