import { Stack } from '@mantine/core';
import { PasswordInput } from './password-input';
import { useTranslation } from 'react-i18next';
import { isStrongPassword } from '../lib/password-policy';

export interface NewPasswordValue {
  password: string;
  confirm: string;
}

/** Client-side check of a new password and its confirmation; null when fine. */
export function newPasswordError(value: NewPasswordValue, optional = false): { password?: string; confirm?: string } | null {
  if (optional && !value.password && !value.confirm) return null;
  if (!isStrongPassword(value.password)) return { password: 'auth.password_rule_error' };
  if (value.password !== value.confirm) return { confirm: 'auth.password_mismatch' };
  return null;
}

/** New password with confirmation and the rule hint. */
export function PasswordFields({
  value,
  onChange,
  errors,
  label,
  required = true,
  hint,
}: {
  value: NewPasswordValue;
  onChange: (value: NewPasswordValue) => void;
  errors?: { password?: string; confirm?: string } | null;
  label?: string;
  required?: boolean;
  hint?: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <PasswordInput
        label={label ?? t('auth.new_password')}
        description={hint ?? t('auth.password_rule')}
        autoComplete="new-password"
        required={required}
        value={value.password}
        error={errors?.password}
        onChange={(e) => onChange({ ...value, password: e.currentTarget.value })}
      />
      <PasswordInput
        label={t('auth.confirm_password')}
        autoComplete="new-password"
        required={required}
        value={value.confirm}
        error={errors?.confirm}
        onChange={(e) => onChange({ ...value, confirm: e.currentTarget.value })}
      />
    </Stack>
  );
}
