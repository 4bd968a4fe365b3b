import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { userKeys } from './keys';

/** What POST and PUT /teams answer. */
export interface TeamSaved {
  team_id: number;
  detail: string;
}

/** POST /teams (no team_id) or PUT /teams (with team_id). */
export function saveTeam(data: Record<string, unknown>): Promise<TeamSaved> {
  return data.team_id ? api.put<TeamSaved>('/teams', data) : api.post<TeamSaved>('/teams', data);
}

export function useSaveTeam() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveTeam,
    onSuccess: () => void client.invalidateQueries({ queryKey: userKeys.teams() }),
  });
}
