import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Team } from '../model/team-form';
import { userKeys } from './keys';

/** GET /teams/{id}: the team with its groups, companies, members and roles. */
export function getTeam(id: string | number, signal?: AbortSignal): Promise<Team> {
  return api.get<{ data: Team }>(`/teams/${encodeURIComponent(String(id))}`, { signal }).then((answer) => answer.data);
}

export const teamQueryOptions = (id: string | number) =>
  queryOptions({ queryKey: userKeys.team(id), queryFn: ({ signal }) => getTeam(id, signal), staleTime: 0 });

export function useTeam(id: string | number) {
  return useQuery(teamQueryOptions(id));
}
