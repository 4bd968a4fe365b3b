import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { UserSaved } from './create-user';
import { userKeys } from './keys';

export interface UpdateUserInput {
  id: string | number;
  /** The user's fields; hollyday_representative and the password are never sent. */
  data: Record<string, unknown>;
  /** The row_version GET answered, sent back for optimistic locking. */
  rowVersion: number | null;
}

/** PUT /users/{id}. */
export function updateUser({ id, data, rowVersion }: UpdateUserInput): Promise<UserSaved> {
  const { hollyday_representative: _never, user_password: _neither, ...rest } = data;
  return api.put<UserSaved>(`/users/${encodeURIComponent(String(id))}`, { ...rest, row_version: rowVersion });
}

export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (_answer, input) => {
      void client.invalidateQueries({ queryKey: userKeys.lists() });
      void client.invalidateQueries({ queryKey: ['users', 'detail', String(input.id)] });
    },
  });
}
