import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { useResetPassword } from '../api/reset-password';
import { AuthCard } from './auth-card';
import { newPasswordError, PasswordFields, type NewPasswordValue } from '../../../components/password-fields';

/** /auth/reset-password/:token: chooses a new password with the e-mailed link. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirm: '' });
  const [errors, setErrors] = useState<{ password?: string; confirm?: string } | null>(null);
  const reset = useResetPassword();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = newPasswordError(value);
    setErrors(problem ? { password: problem.password && t(problem.password), confirm: problem.confirm && t(problem.confirm) } : null);
    if (problem) return;
    reset.mutate(
      { token, password: value.password },
      {
        onSuccess: (answer) => {
          notifySuccess(answer?.detail || t('auth.reset.done'));
          navigate('/login', { replace: true });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) {
            setErrors({ password: error.fieldErrors().password ?? t('auth.password_rule_error') });
          }
        },
      },
    );
  };

  const tokenProblem = reset.error instanceof ApiError && reset.error.status !== 422 ? errorMessage(reset.error) : null;

  return (
    <AuthCard title={t('auth.reset.title')} subtitle={t('auth.reset.subtitle')}>
      <form onSubmit={onSubmit}>
        <Stack gap="md">
          {tokenProblem ? (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {tokenProblem}{' '}
              <Anchor component={Link} to="/forgot-password" fz="sm">
                {t('auth.reset.request_new')}
              </Anchor>
            </Alert>
          ) : null}
          <PasswordFields value={value} onChange={setValue} errors={errors} />
          <Button type="submit" fullWidth loading={reset.isPending}>
            {t('auth.reset.submit')}
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/login" fz="sm" ta="center">
        {t('auth.back_to_login')}
      </Anchor>
    </AuthCard>
  );
}

export default ResetPasswordPage;
