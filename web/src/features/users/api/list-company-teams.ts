import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { TeamRow } from '../model/team-form';
import { userKeys } from './keys';

/** Teams offered to one user: every team, or (with a company) those available to it. */
export function listCompanyTeams(companyId: number | null, signal?: AbortSignal): Promise<TeamRow[]> {
  return api
    .get<{ data: TeamRow[] }>('/teams', { query: { page: 1, per_page: 1000, company_id: companyId ?? undefined }, signal })
    .then((answer) => answer.data);
}

export const companyTeamsQueryOptions = (companyId: number | null) =>
  queryOptions({
    queryKey: userKeys.companyTeams(companyId),
    queryFn: ({ signal }) => listCompanyTeams(companyId, signal),
    staleTime: 30_000,
  });

/** GET /teams (optionally for a company), for the user form's team choice. */
export function useCompanyTeams(companyId: number | null) {
  return useQuery(companyTeamsQueryOptions(companyId));
}
