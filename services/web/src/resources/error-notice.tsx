import { Alert } from 'antd';
import { ApiError } from '../api/envelope.js';
import { useI18n } from '../i18n/i18n.js';

/** A failed call shown by its code and words; nothing is swallowed. */
export function ErrorNotice({ error }: { error: unknown }) {
  const { t, errorText } = useI18n();
  if (error instanceof ApiError) {
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        title={`${errorText(error.code, error.message)} (${error.code})`}
        description={error.fieldErrors.length ? error.fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; ') : error.message}
      />
    );
  }
  return <Alert type="error" showIcon role="alert" title={t('error.network')} description={String(error)} />;
}
