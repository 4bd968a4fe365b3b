import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface DetailAnswer {
  detail: string;
}

/** POST /auth/forgot-password: sends a reset link (same answer whether or not the address exists). */
export function forgotPassword(email: string): Promise<DetailAnswer> {
  return api.post<DetailAnswer>('/auth/forgot-password', { email }, { auth: false });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
