import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { tableKeys } from './keys';
import type { SavedView } from './saved-view';

/** Creates a view (POST /api/views), or replaces it when it has an id (PUT /api/views/{id}). */
export function saveView(view: SavedView): Promise<{ data: SavedView }> {
  const body = {
    entity: view.entity,
    name: view.name,
    shared: view.shared,
    role_id: view.role_id ?? null,
    settings: view.settings,
    row_version: view.row_version ?? 0,
  };
  return view.savedview_id ? api.put(`/api/views/${view.savedview_id}`, body) : api.post('/api/views', body);
}

export function useSaveView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveView,
    onSuccess: (_answer, view) => client.invalidateQueries({ queryKey: tableKeys.views(view.entity) }),
  });
}
