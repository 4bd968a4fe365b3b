import { apiRequest } from '../../../lib/api-client';
import { getBrowserHash } from '../../../lib/session';

export interface LoginInput {
  username: string;
  password: string;
}

export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in?: number;
}

/** POST /token: the OAuth2-style password login (form-urlencoded). */
export function requestToken({ username, password }: LoginInput): Promise<TokenAnswer> {
  const body = new URLSearchParams({ username, password, user_browser_hash: getBrowserHash() });
  // Silent: the login form explains every failure itself.
  return apiRequest<TokenAnswer>('/token', { method: 'POST', body, auth: false, silent: true });
}
