import { App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { api } from '../api/client.js';
import { ApiError, unwrap } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';
import { applyFieldErrors } from '../resources/field-errors.js';

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

export default function PasswordDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t, errorText } = useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordForm>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (values: PasswordForm) => {
    setBusy(true);
    setError(null);
    try {
      unwrap(await api.PUT('/api/auth/password', { body: { oldPassword: values.oldPassword, newPassword: values.newPassword } }));
      void message.success(t('password.changed'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError) {
        if (!applyFieldErrors(form, err)) setError(errorText(err.code, err.message));
      } else setError(t('error.network'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('shell.password')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      <Form<PasswordForm> form={form} layout="vertical" onFinish={submit}>
        <Form.Item label={t('password.old')} name="oldPassword" rules={[{ required: true, message: t('login.required') }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item label={t('password.new')} name="newPassword" rules={[{ required: true, message: t('login.required') }]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label={t('password.confirm')}
          name="confirm"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('login.required') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || getFieldValue('newPassword') === value ? Promise.resolve() : Promise.reject(new Error(t('password.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
