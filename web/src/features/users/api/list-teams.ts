import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { TeamRow } from '../model/team-form';
import { userKeys } from './keys';

/** The team list's page size (specification). */
export const TEAM_PAGE_SIZE = 30;

export interface TeamListParams {
  page: number;
  keyword: string;
  order: 'asc' | 'desc';
  /** Only teams available to this company. */
  companyId: number | null;
}

export interface TeamListPage {
  data: TeamRow[];
  links: { pagination: { current_page: number; last_page: number; total: number } };
}

/** GET /teams: 30 teams per page, optionally for a company. */
export function listTeams(params: TeamListParams, signal?: AbortSignal): Promise<TeamListPage> {
  const keyword = params.keyword.trim();
  return api.get<TeamListPage>('/teams', {
    query: {
      page: params.page,
      per_page: TEAM_PAGE_SIZE,
      keyword: keyword.length >= 2 ? keyword : undefined,
      order: params.order,
      company_id: params.companyId ?? undefined,
    },
    signal,
  });
}

export const teamsQueryOptions = (params: TeamListParams) =>
  queryOptions({
    queryKey: userKeys.teamList(params),
    queryFn: ({ signal }) => listTeams(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export function useTeams(params: TeamListParams) {
  return useQuery(teamsQueryOptions(params));
}
