import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '../../../components/brand';
import { notifySuccess } from '../../../lib/notify';
import { ApiError } from '../../../lib/api-client';
import { type CurrentUser, session } from '../../../lib/session';
import { getCurrentUser } from '../api/get-current-user';
import { type LoginInput, requestToken } from '../api/login';

/** Why a login failed, so the form can say it clearly. */
export type LoginFailure =
  | 'credentials'
  | 'locked'
  | 'throttled'
  | 'password_change_required'
  | 'forbidden'
  | 'server_down'
  | 'unknown';

export function classifyLoginError(error: unknown): LoginFailure {
  if (!(error instanceof ApiError)) return 'unknown';
  if (error.status === 400 || error.status === 401 || error.status === 422) return 'credentials';
  if (error.status === 429) return 'throttled';
  if (error.status === 403) {
    if (error.code === 'account_locked') return 'locked';
    if (error.code === 'password_change_required') return 'password_change_required';
    return 'forbidden';
  }
  if (error.status === 0 || error.status === 408 || error.status === 502 || error.status === 503 || error.status === 504) {
    return 'server_down';
  }
  return 'unknown';
}

/**
 * Logs in: POST /token, then GET /user/ with the new token; only when both
 * succeed are tokens and user stored together, so the app never sees a
 * half-made session.
 */
export async function performLogin(input: LoginInput): Promise<CurrentUser> {
  const tokens = await requestToken(input);
  const user = await getCurrentUser({ silent: true, token: tokens.access_token });
  session.setTokens(tokens.access_token, tokens.refresh_token, tokens.expires_in ?? null);
  session.setUser(user);
  return user;
}

/** Shows the welcome-back toast naming the product. */
export function welcomeBack(user: CurrentUser, t: TFunction): void {
  const name = user.user_firstname?.trim();
  notifySuccess(
    name ? t('auth.login.welcome_name', { name }) : t('auth.login.welcome_text'),
    t('auth.login.welcome', { product: PRODUCT_NAME }),
  );
}

/**
 * The login mutation. The welcome toast is shown here rather than in the
 * page: the page unmounts as soon as the session exists (the guest guard
 * sends the user on), and mutate() callbacks of an unmounted page never run.
 */
export function useLogin() {
  const { t } = useTranslation();
  return useMutation({ mutationFn: performLogin, onSuccess: (user) => welcomeBack(user, t) });
}
