import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { userKeys } from './keys';

/** DELETE /teams with team_ids; a team still in use answers 409 and nothing is deleted. */
export function deleteTeams(teamIds: number[]): Promise<{ detail: string }> {
  return api.delete<{ detail: string }>('/teams', { team_ids: teamIds });
}

export function useDeleteTeams() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteTeams,
    onSuccess: (_, teamIds) => {
      // The deleted teams are gone: asking for them again would only answer 404.
      for (const id of teamIds) client.removeQueries({ queryKey: userKeys.team(id) });
      void client.invalidateQueries({ queryKey: userKeys.teams() });
    },
  });
}
