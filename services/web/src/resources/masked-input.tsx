import { Button, Input, Space } from 'antd';
import { useState } from 'react';
import { useI18n } from '../i18n/i18n.js';
import type { FieldMeta } from './meta.js';

/**
 * A masked (write-only) field in an edit form (DECISIONS "Masked and encrypted fields are
 * write-only"): the masked value the server returned is shown as text, never put into the input;
 * "change" opens an empty input, and the form sends the field only when something was typed.
 * Form.Item hands in id, value and onChange.
 */
export function MaskedInput({
  field,
  shown,
  id,
  value,
  onChange,
  disabled,
}: {
  field: FieldMeta;
  shown: unknown;
  id?: string;
  value?: unknown;
  onChange?: (value: string | undefined) => void;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const hasShown = shown !== null && shown !== undefined && shown !== '';
  const [open, setOpen] = useState(!hasShown);
  if (!open) {
    return (
      <Space className="masked-field" data-field={field.key}>
        <span className="masked-value" id={id} title={t('masked.hint')}>
          {String(shown)}
        </span>
        <Button size="small" disabled={disabled} onClick={() => setOpen(true)} aria-label={`${t('masked.change')} ${field.key}`}>
          {t('masked.change')}
        </Button>
      </Space>
    );
  }
  const typed = typeof value === 'string' ? value : '';
  return (
    <Space.Compact className="masked-field full-width" data-field={field.key}>
      <Input
        id={id}
        value={typed}
        autoFocus={hasShown}
        disabled={disabled}
        placeholder={t('masked.placeholder')}
        type={field.kind === 'email' ? 'email' : 'text'}
        autoComplete="off"
        onChange={(e) => onChange?.(e.target.value)}
      />
      {hasShown && (
        <Button
          onClick={() => {
            onChange?.(undefined);
            setOpen(false);
          }}
        >
          {t('masked.keep')}
        </Button>
      )}
    </Space.Compact>
  );
}
