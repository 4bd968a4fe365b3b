import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { DetailAnswer } from './forgot-password';

export interface VerifyAccountInput {
  token: string;
  /** Required when the account has no password yet. */
  password?: string;
}

/** POST /auth/verify: confirms the account of the e-mailed link, optionally setting a password. */
export function verifyAccount({ token, password }: VerifyAccountInput): Promise<DetailAnswer> {
  return api.post<DetailAnswer>('/auth/verify', password ? { token, password } : { token }, { auth: false });
}

export function useVerifyAccount() {
  return useMutation({ mutationFn: verifyAccount });
}
