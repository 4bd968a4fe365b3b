import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { CurrentUser } from '../../../lib/session';

/** GET /user/: the current user record with rights and menu configuration. */
export function getCurrentUser(options?: { silent?: boolean; token?: string }): Promise<CurrentUser> {
  return api.get<CurrentUser>('/user/', { silent: options?.silent, token: options?.token });
}

export const currentUserQueryKey = ['current-user'] as const;

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: () => getCurrentUser({ silent: true }),
    staleTime: 5 * 60_000,
  });
}

export function useCurrentUserQuery(enabled: boolean) {
  return useQuery({ ...currentUserQueryOptions(), enabled });
}
