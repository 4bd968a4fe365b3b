import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Row } from '../../../lib/table-definition';
import { userKeys } from './keys';

/** Query of GET /users (the custom user list). */
export interface UserListParams {
  page: number;
  perPage: number;
  /** Sent from 2 characters on. */
  keyword: string;
  order: 'asc' | 'desc';
}

/** One page of a custom list: rows and links.pagination. */
export interface CustomListPage {
  data: Row[];
  links: { pagination: { current_page: number; last_page: number; total: number } };
}

/** GET /users: a page of the users the caller may see (rights and tenant on the server). */
export function listUsers(params: UserListParams, signal?: AbortSignal): Promise<CustomListPage> {
  const keyword = params.keyword.trim();
  return api.get<CustomListPage>('/users', {
    query: { page: params.page, per_page: params.perPage, keyword: keyword.length >= 2 ? keyword : undefined, order: params.order },
    signal,
  });
}

export const usersQueryOptions = (params: UserListParams) =>
  queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) => listUsers(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export function useUsers(params: UserListParams) {
  return useQuery(usersQueryOptions(params));
}
