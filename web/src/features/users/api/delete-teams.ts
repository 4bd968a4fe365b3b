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
      // The deleted teams are gone: asking for them again (the page still
      // shows one until it leaves) would only answer 404.
      const deleted = new Set(teamIds.map((id) => JSON.stringify(userKeys.team(id))));
      void client.invalidateQueries({ queryKey: userKeys.teams(), predicate: (q) => !deleted.has(JSON.stringify(q.queryKey)) });
    },
  });
}
