import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface ChangeOwnPasswordInput {
  old_password: string;
  new_password: string;
}

/** PUT /user/password: changes the password; the server ends the user's other sessions. */
export function changeOwnPassword(input: ChangeOwnPasswordInput): Promise<{ detail: string }> {
  return api.put<{ detail: string }>('/user/password', input);
}

export function useChangeOwnPassword() {
  return useMutation({ mutationFn: changeOwnPassword });
}
