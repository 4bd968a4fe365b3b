import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { DetailAnswer } from './forgot-password';

export interface ResetPasswordInput {
  token: string;
  password: string;
}

/** POST /auth/reset-password: sets a new password with the token of the e-mailed link. */
export function resetPassword(input: ResetPasswordInput): Promise<DetailAnswer> {
  return api.post<DetailAnswer>('/auth/reset-password', input, { auth: false });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
