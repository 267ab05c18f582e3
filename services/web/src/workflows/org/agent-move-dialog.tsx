import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal, Radio, Select, TreeSelect } from 'antd';
import { api } from '../../api/client.js';
import { ApiError, unwrap } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { ErrorNotice } from '../../resources/error-notice.js';
import { placeFieldErrors } from '../../resources/field-errors.js';
import { todayText, useGrades, useOrgTree, type MoveBody, type OrgNode } from './org-api.js';

interface MoveValues {
  changeType: MoveBody['changeType'];
  orgId?: number;
  gradeId?: number;
  changeDate: string;
  changeReason?: string;
}

interface TreeOption {
  value: number;
  title: string;
  disabled?: boolean;
  children: TreeOption[];
}

function orgOptions(nodes: OrgNode[]): TreeOption[] {
  return nodes.map((n) => ({ value: n.orgId, title: n.orgName, disabled: !n.isActive, children: orgOptions(n.children) }));
}

const FIELDS = ['changeType', 'orgId', 'gradeId', 'changeDate', 'changeReason'];

/**
 * Transfer, promotion or demotion of one agent (POST /api/agents/{id}/move). The server decides
 * what is valid (a TRANSFER needs another organization, a PROMOTE a higher grade ...); its field
 * errors land on the fields, anything else above the form.
 */
export function AgentMoveDialog({
  agent,
  onDone,
  onCancel,
}: {
  agent: { agentId: number; agentName: string; orgId: number; gradeId: number };
  onDone(): void;
  onCancel(): void;
}) {
  const { t } = useI18n();
  const [form] = Form.useForm<MoveValues>();
  const orgs = useOrgTree(true);
  const grades = useGrades();
  const type = Form.useWatch('changeType', form) ?? 'TRANSFER';

  const move = useMutation({
    mutationFn: async (values: MoveValues) => {
      const body: MoveBody = { changeType: values.changeType, changeDate: values.changeDate };
      // The field a move is about always goes (the server says why an unchanged one is wrong); the other only when changed.
      const transfer = values.changeType === 'TRANSFER';
      if (values.orgId !== undefined && (transfer || values.orgId !== agent.orgId)) body.orgId = values.orgId;
      if (values.gradeId !== undefined && (!transfer || values.gradeId !== agent.gradeId)) body.gradeId = values.gradeId;
      if (values.changeReason?.trim()) body.changeReason = values.changeReason.trim();
      unwrap(await api.POST('/api/agents/{id}/move', { params: { path: { id: agent.agentId } }, body }));
    },
    onSuccess: onDone,
    onError: (err) => {
      if (err instanceof ApiError) placeFieldErrors(form, err, FIELDS);
    },
  });

  return (
    <Modal
      open
      title={t('agent.moveTitle', { name: agent.agentName })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={move.isPending}
      onOk={() => form.submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      {move.error ? <ErrorNotice error={move.error} /> : null}
      <Form<MoveValues>
        form={form}
        name="agent-move"
        layout="vertical"
        className="dialog-form"
        initialValues={{ changeType: 'TRANSFER', changeDate: todayText(), orgId: agent.orgId, gradeId: agent.gradeId }}
        onFinish={(values) => move.mutate(values)}
      >
        <Form.Item name="changeType" label={t('agent.moveType')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'TRANSFER', label: t('agent.transfer') },
              { value: 'PROMOTE', label: t('agent.promote') },
              { value: 'DEMOTE', label: t('agent.demote') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="orgId"
          label={t('org.organization')}
          rules={type === 'TRANSFER' ? [{ required: true, message: t('login.required') }] : []}
        >
          <TreeSelect treeData={orgOptions(orgs.data ?? [])} treeDefaultExpandAll showSearch treeNodeFilterProp="title" loading={orgs.isLoading} />
        </Form.Item>
        <Form.Item
          name="gradeId"
          label={t('org.grade')}
          rules={type === 'TRANSFER' ? [] : [{ required: true, message: t('login.required') }]}
        >
          <Select
            loading={grades.isLoading}
            options={(grades.data ?? []).map((g) => ({ value: g.gradeId, label: `${g.gradeName} (${g.gradeLevel})`, disabled: !g.isActive }))}
          />
        </Form.Item>
        <Form.Item name="changeDate" label={t('agent.changeDate')} rules={[{ required: true, message: t('login.required') }]}>
          <Input type="date" />
        </Form.Item>
        <Form.Item name="changeReason" label={t('agent.reason')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
