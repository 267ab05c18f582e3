import { Alert, Button, Card, Form, Input, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../api/envelope.js';
import { useI18n, type Lang } from '../i18n/i18n.js';
import { useAuth } from './auth.js';

interface LoginForm {
  loginId: string;
  password: string;
}

export default function LoginPage() {
  const { t, errorText, lang, setLang } = useI18n();
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const from = (location.state as { from?: string } | null)?.from ?? '/';

  if (auth.signedIn) return <Navigate to={from} replace />;

  const submit = async (values: LoginForm) => {
    setBusy(true);
    setError(null);
    try {
      await auth.login(values.loginId, values.password);
      await navigate(from, { replace: true });
    } catch (err) {
      if (err instanceof ApiError) setError(err.status === 429 ? t('login.tooMany') : errorText(err.code, err.message));
      else setError(t('error.network'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login-page">
      <Card className="login-card">
        <Typography.Title level={1} className="login-title">
          {t('app.title')}
        </Typography.Title>
        <Segmented<Lang>
          aria-label={t('shell.language')}
          value={lang}
          onChange={setLang}
          options={[
            { label: 'English', value: 'en' },
            { label: '한국어', value: 'ko' },
          ]}
        />
        <Typography.Title level={2} className="login-subtitle">
          {t('login.title')}
        </Typography.Title>
        {error && <Alert type="error" role="alert" showIcon title={error} className="login-error" />}
        <Form<LoginForm> layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item label={t('login.loginId')} name="loginId" rules={[{ required: true, message: t('login.required') }]}>
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item label={t('login.password')} name="password" rules={[{ required: true, message: t('login.required') }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('login.submit')}
          </Button>
        </Form>
      </Card>
    </main>
  );
}
