import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { dataProvider } from '../../../lib/data-provider';
import type { Row } from '../../../lib/table-definition';
import { type UserAnswer, userFormRow } from '../model/user-form';
import { userKeys } from './keys';

/** GET /users/{id}: the user with user type, company (and customer group) and contact person. */
export function getUser(id: string | number, signal?: AbortSignal): Promise<{ data: UserAnswer }> {
  return api.get<{ data: UserAnswer }>(`/users/${encodeURIComponent(String(id))}`, { signal });
}

/**
 * The user as the page edits it: GET /users/{id} with the ids derived from
 * it, plus the labels and login times of the generic read of the same row.
 */
export async function loadUser(id: string | number, signal?: AbortSignal): Promise<Row> {
  const [answer, generic] = await Promise.all([getUser(id, signal), dataProvider.one('user', id, signal).catch(() => null)]);
  return userFormRow(answer.data, generic?.data ?? null);
}

export const userQueryOptions = (id: string | number) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: ({ signal }) => loadUser(id, signal), staleTime: 0 });

export function useUser(id: string | number) {
  return useQuery(userQueryOptions(id));
}
