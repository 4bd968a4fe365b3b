import { api } from '../../../lib/api-client';
import type { DetailAnswer } from './forgot-password';

export interface ChangeExpiredPasswordInput {
  username: string;
  old_password: string;
  new_password: string;
}

/** POST /auth/change-password: for users who must change their password before logging in. */
export function changeExpiredPassword(input: ChangeExpiredPasswordInput): Promise<DetailAnswer> {
  return api.post<DetailAnswer>('/auth/change-password', input, { auth: false, silent: true });
}
