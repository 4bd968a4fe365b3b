import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { userKeys } from './keys';

/** What POST /users answers: the new id and the translated "User Created". */
export interface UserSaved {
  user_id: number;
  detail: string;
}

/** POST /users: creates a user and sends the verification mail. */
export function createUser(data: Record<string, unknown>): Promise<UserSaved> {
  return api.post<UserSaved>('/users', data);
}

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => void client.invalidateQueries({ queryKey: userKeys.lists() }),
  });
}
