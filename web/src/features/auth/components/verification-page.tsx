import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { useVerifyAccount } from '../api/verify-account';
import { AuthCard } from './auth-card';
import { newPasswordError, PasswordFields, type NewPasswordValue } from '../../../components/password-fields';

/**
 * /auth/verification/:token: confirms the account. The password field is
 * always shown: required when the account has none yet (the server then
 * answers 422 on `password`), optional otherwise.
 */
export function VerificationPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirm: '' });
  const [errors, setErrors] = useState<{ password?: string; confirm?: string } | null>(null);
  const verify = useVerifyAccount();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = newPasswordError(value, true);
    setErrors(problem ? { password: problem.password && t(problem.password), confirm: problem.confirm && t(problem.confirm) } : null);
    if (problem) return;
    verify.mutate(
      { token, password: value.password || undefined },
      {
        onSuccess: (answer) => {
          notifySuccess(answer?.detail || t('auth.verify.done'));
          navigate('/login', { replace: true });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) {
            const serverText = error.fieldErrors().password;
            setErrors({ password: value.password ? (serverText ?? t('auth.password_rule_error')) : t('auth.verify.password_needed') });
          }
        },
      },
    );
  };

  const tokenProblem = verify.error instanceof ApiError && verify.error.status !== 422 ? errorMessage(verify.error) : null;

  return (
    <AuthCard title={t('auth.verify.title')} subtitle={t('auth.verify.subtitle')}>
      <form onSubmit={onSubmit}>
        <Stack gap="md">
          {tokenProblem ? (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {tokenProblem}
            </Alert>
          ) : null}
          <PasswordFields
            value={value}
            onChange={setValue}
            errors={errors}
            label={t('auth.verify.choose_password')}
            required={false}
            hint={t('auth.verify.password_hint')}
          />
          <Button type="submit" fullWidth loading={verify.isPending}>
            {t('auth.verify.submit')}
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/login" fz="sm" ta="center">
        {t('auth.back_to_login')}
      </Anchor>
    </AuthCard>
  );
}

export default VerificationPage;
