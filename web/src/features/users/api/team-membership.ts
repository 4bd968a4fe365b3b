import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { userKeys } from './keys';

/** One team-user relation: valid_from and valid_to as YYYY-MM-DD or null. */
export interface MembershipInput {
  team_id: number;
  user_id: number;
  valid_from?: string | null;
  valid_to?: string | null;
}

/** PUT /teams/users: adds a member or changes the membership's validity. */
export function setMembership(input: MembershipInput): Promise<{ detail: string }> {
  return api.put<{ detail: string }>('/teams/users', input);
}

/** DELETE /teams/users: takes the user out of the team. */
export function removeMembership({ team_id, user_id }: MembershipInput): Promise<{ detail: string }> {
  return api.delete<{ detail: string }>('/teams/users', { team_id, user_id });
}

function useMembershipMutation(fn: (input: MembershipInput) => Promise<{ detail: string }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (_answer, input) => {
      void client.invalidateQueries({ queryKey: userKeys.team(input.team_id) });
      void client.invalidateQueries({ queryKey: ['users', 'detail', String(input.user_id)] });
    },
  });
}

export const useSetMembership = () => useMembershipMutation(setMembership);
export const useRemoveMembership = () => useMembershipMutation(removeMembership);
