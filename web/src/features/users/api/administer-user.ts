import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { userKeys } from './keys';

/** The administrator actions on a user (manage on user). */
export const ADMIN_ACTIONS = ['lock', 'unlock', 'force-password-reset', 'end-sessions'] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/** POST /users/{id}/{action}: answers the translated confirmation. */
export function administerUser({ id, action }: { id: string | number; action: AdminAction }): Promise<{ user_id: number; detail: string }> {
  return api.post(`/users/${encodeURIComponent(String(id))}/${action}`);
}

export function useAdministerUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: administerUser,
    onSuccess: (_answer, input) => {
      void client.invalidateQueries({ queryKey: userKeys.lists() });
      void client.invalidateQueries({ queryKey: ['users', 'detail', String(input.id)] });
    },
  });
}
