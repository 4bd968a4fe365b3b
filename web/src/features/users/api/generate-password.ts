import { api } from '../../../lib/api-client';

/** GET /users/generate/password/: a password the policy accepts. */
export async function generatePassword(): Promise<string> {
  const answer = await api.get<string | { password?: string; data?: string }>('/users/generate/password/');
  if (typeof answer === 'string') return answer;
  return answer.password ?? answer.data ?? '';
}
