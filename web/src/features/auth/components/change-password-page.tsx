import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { PasswordInput } from '../../../components/password-input';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { changeExpiredPassword } from '../api/change-expired-password';
import { performLogin, welcomeBack } from '../hooks/use-login';
import { AuthCard } from './auth-card';
import { newPasswordError, PasswordFields, type NewPasswordValue } from '../../../components/password-fields';

/**
 * /change-password: for users who must change their password before logging
 * in. On success it logs in with the new password.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const state = location.state as { email?: string; required?: boolean } | null;
  const [email, setEmail] = useState(state?.email ?? '');
  const [oldPassword, setOldPassword] = useState('');
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirm: '' });
  const [errors, setErrors] = useState<{ password?: string; confirm?: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const check = newPasswordError(value);
    setErrors(check ? { password: check.password && t(check.password), confirm: check.confirm && t(check.confirm) } : null);
    if (check) return;
    setPending(true);
    try {
      await changeExpiredPassword({ username: email.trim(), old_password: oldPassword, new_password: value.password });
    } catch (error) {
      setPending(false);
      if (error instanceof ApiError && error.status === 422) {
        setErrors({ password: error.fieldErrors().new_password ?? t('auth.password_rule_error') });
      } else {
        setProblem(errorMessage(error));
      }
      return;
    }
    try {
      notifySuccess(t('auth.change.done'));
      const user = await performLogin({ username: email.trim(), password: value.password });
      welcomeBack(user, t);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthCard title={t('auth.change.title')} subtitle={t('auth.change.subtitle')}>
      <form onSubmit={(e) => void onSubmit(e)}>
        <Stack gap="md">
          {state?.required ? (
            <Alert color="blue" icon={<IconInfoCircle size={18} />} role="status">
              {t('auth.change.required')}
            </Alert>
          ) : null}
          {problem ? (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {problem}
            </Alert>
          ) : null}
          <TextInput
            label={t('auth.email')}
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <PasswordInput
            label={t('auth.current_password')}
            autoComplete="current-password"
            required
            value={oldPassword}
            onChange={(e) => setOldPassword(e.currentTarget.value)}
          />
          <PasswordFields value={value} onChange={setValue} errors={errors} />
          <Button type="submit" fullWidth loading={pending}>
            {t('auth.change.submit')}
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/login" fz="sm" ta="center">
        {t('auth.back_to_login')}
      </Anchor>
    </AuthCard>
  );
}

export default ChangePasswordPage;
