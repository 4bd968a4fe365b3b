import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** A generated password (GET /users/generate/password/). */
export async function generatePassword(): Promise<string> {
  const answer = await api.get<string | { password?: string; data?: string }>('/users/generate/password/');
  if (typeof answer === 'string') return answer;
  return answer.password ?? answer.data ?? '';
}

export function useGeneratePassword() {
  return useMutation({ mutationFn: generatePassword });
}
