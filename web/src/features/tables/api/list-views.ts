import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { tableKeys } from './keys';
import type { SavedView } from './saved-view';

/** The saved views of a table the user sees (GET /api/views?entity=). */
export async function listViews(entity: string, signal?: AbortSignal): Promise<SavedView[]> {
  const answer = await api.get<{ data: SavedView[] } | SavedView[]>('/api/views', { query: { entity }, signal, silent: true });
  return Array.isArray(answer) ? answer : (answer?.data ?? []);
}

export const viewsQueryOptions = (entity: string) =>
  queryOptions({ queryKey: tableKeys.views(entity), queryFn: ({ signal }) => listViews(entity, signal), retry: false });

export function useViews(entity: string) {
  return useQuery(viewsQueryOptions(entity));
}
