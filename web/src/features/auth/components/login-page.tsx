import { Alert, Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { PasswordInput } from '../../../components/password-input';
import { IconAlertCircle, IconClockPause, IconInfoCircle, IconLock, IconServerOff } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { PRODUCT_NAME } from '../../../components/brand';
import { ApiError } from '../../../lib/api-client';
import { session } from '../../../lib/session';
import { AuthCard } from './auth-card';
import { classifyLoginError, type LoginFailure, useLogin } from '../hooks/use-login';

const FAILURE_KEYS: Record<Exclude<LoginFailure, 'password_change_required'>, string> = {
  credentials: 'auth.login.error_credentials',
  locked: 'auth.login.error_locked',
  throttled: 'auth.login.error_throttled',
  forbidden: 'auth.login.error_forbidden',
  server_down: 'auth.login.error_server_down',
  unknown: 'general.error',
};

/** Seconds left until `until` (epoch ms), ticking every second; 0 once it passed. */
function useSecondsUntil(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return undefined;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * /login: e-mail and password; explains wrong credentials, a locked account,
 * a wait after too many failed attempts (counting down, the button waits too)
 * and a server that is down.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const prefill = (location.state as { email?: string } | null)?.email ?? '';
  const [email, setEmail] = useState(prefill);
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<{ kind: LoginFailure; detail: string | null } | null>(null);
  const [waitUntil, setWaitUntil] = useState<number | null>(null);
  const waitSeconds = useSecondsUntil(waitUntil);
  const [expired] = useState(() => session.takeLogoutReason() === 'expired');
  const login = useLogin();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    // On success the guest guard sends the user on (home, or where the login began).
    login.mutate(
      { username: email.trim(), password },
      {
        onError: (error) => {
          const kind = classifyLoginError(error);
          if (kind === 'password_change_required') {
            navigate('/change-password', { state: { email: email.trim(), required: true } });
            return;
          }
          setFailure({ kind, detail: error instanceof ApiError && typeof error.detail === 'string' ? error.detail : null });
          const wait = error instanceof ApiError ? error.retryAfter : null;
          setWaitUntil(kind === 'throttled' ? Date.now() + (wait ?? 30) * 1000 : null);
          setPassword('');
        },
      },
    );
  };

  const throttled = failure?.kind === 'throttled';
  const failureText =
    failure && failure.kind !== 'password_change_required' && !(throttled && waitSeconds === 0)
      ? failure.kind === 'forbidden' && failure.detail
        ? failure.detail
        : t(FAILURE_KEYS[failure.kind], { count: waitSeconds })
      : null;
  const FailureIcon =
    failure?.kind === 'locked'
      ? IconLock
      : failure?.kind === 'server_down'
        ? IconServerOff
        : throttled
          ? IconClockPause
          : IconAlertCircle;

  return (
    <AuthCard title={t('auth.login.title', { product: PRODUCT_NAME })} subtitle={t('auth.login.subtitle')}>
      <form onSubmit={onSubmit}>
        <Stack gap="md">
          {expired ? (
            <Alert color="blue" icon={<IconInfoCircle size={18} />} role="status">
              {t('auth.login.session_expired')}
            </Alert>
          ) : null}
          {failureText ? (
            <Alert color={failure?.kind === 'server_down' ? 'orange' : 'red'} icon={<FailureIcon size={18} />} role="alert">
              {failureText}
            </Alert>
          ) : null}
          <TextInput
            label={t('auth.email')}
            type="email"
            autoComplete="username"
            required
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <PasswordInput
            label={t('auth.password')}
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot-password" fz="sm">
              {t('auth.login.forgot')}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={login.isPending} disabled={waitSeconds > 0}>
            {t('auth.login.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

export default LoginPage;
