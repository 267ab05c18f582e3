import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Descriptions, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { api } from '../../api/client.js';
import { ApiError, unwrap } from '../../api/envelope.js';
import { useI18n } from '../../i18n/i18n.js';
import { ShownValue } from './shown-value.js';
import { settingName, valueErrorText, type ConfigEntry } from './config-words.js';

/**
 * Changes one setting. A plain value starts as it is; an encrypted one starts empty (DECISIONS "Masked
 * and encrypted fields are write-only", as masked-input.tsx): its stored value is never shown, and
 * nothing is sent until a new value is typed. The server validates per key; its refusal is put on the
 * field in words.
 */
export function ConfigEditDialog({ entry, onClose }: { entry: ConfigEntry; onClose(): void }) {
  const { t, lang, errorText } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ value: string }>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const encrypted = entry.isEncrypted === 'Y';
  const name = settingName(lang, entry);

  const save = async () => {
    let value: string;
    try {
      value = (await form.validateFields()).value ?? '';
    } catch {
      return;
    }
    setSaving(true);
    setFailure(null);
    try {
      unwrap(await api.PUT('/api/system/config/{key}', { params: { path: { key: entry.configKey } }, body: { value } }));
      void message.success(t('config.saved', { name }));
      onClose();
      // The list and its change log are fetched again behind the closed dialog; the services write the
      // change log in batches (every 500 ms), so the log is asked once more a moment later.
      void queryClient.invalidateQueries({ queryKey: ['system-config'] });
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: ['system-config', 'changes'] }), 1500);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'E411' && err.fieldErrors.length > 0) {
        const onValue = err.fieldErrors.filter((e) => e.field === 'value' || e.field.endsWith('.value'));
        if (onValue.length > 0) form.setFields([{ name: 'value', errors: onValue.map((e) => valueErrorText(t, e.message)) }]);
        const rest = err.fieldErrors.filter((e) => !onValue.includes(e));
        if (rest.length > 0) setFailure(rest.map((e) => valueErrorText(t, e.message)).join('; '));
      } else {
        setFailure(err instanceof ApiError ? `${errorText(err.code, err.message)} (${err.code})` : String(err));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('config.editTitle', { name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Descriptions
        size="small"
        column={1}
        className="config-edit-current"
        items={[
          { key: 'key', label: t('config.key'), children: entry.configKey },
          { key: 'current', label: t('config.current'), children: <ShownValue entry={entry} /> },
        ]}
      />
      {failure && <Alert type="error" role="alert" showIcon title={failure} className="list-toolbar" />}
      <Form form={form} layout="vertical" name="config-edit" initialValues={{ value: encrypted ? '' : entry.configValue }} onFinish={() => void save()}>
        <Form.Item
          name="value"
          label={t('config.newValue')}
          extra={encrypted ? t('config.encryptedHint') : undefined}
          rules={encrypted ? [{ required: true, message: t('config.typeNew') }] : []}
        >
          <Input autoComplete="off" maxLength={4000} autoFocus placeholder={encrypted ? t('masked.placeholder') : undefined} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
