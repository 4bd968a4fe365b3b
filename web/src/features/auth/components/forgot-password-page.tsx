import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useForgotPassword } from '../api/forgot-password';
import { AuthCard } from './auth-card';

/** /forgot-password: asks for a reset link by e-mail. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const forgot = useForgotPassword();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    forgot.mutate(email.trim());
  };

  return (
    <AuthCard title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')}>
      {forgot.isSuccess ? (
        <Alert color="teal" icon={<IconMailCheck size={18} />} role="status">
          {forgot.data?.detail || t('auth.forgot.sent')}
        </Alert>
      ) : (
        <form onSubmit={onSubmit}>
          <Stack gap="md">
            {forgot.isError ? (
              <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
                {errorMessage(forgot.error)}
              </Alert>
            ) : null}
            <TextInput
              label={t('auth.email')}
              type="email"
              autoComplete="email"
              required
              autoFocus
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <Button type="submit" fullWidth loading={forgot.isPending}>
              {t('auth.forgot.submit')}
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login" fz="sm" ta="center">
        {t('auth.back_to_login')}
      </Anchor>
    </AuthCard>
  );
}

export default ForgotPasswordPage;
