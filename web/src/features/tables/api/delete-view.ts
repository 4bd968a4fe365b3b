import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { tableKeys } from './keys';
import type { SavedView } from './saved-view';

/** Deletes one of the user's views (DELETE /api/views/{id}). */
export const deleteView = (view: SavedView) => api.delete(`/api/views/${view.savedview_id}`);

export function useDeleteView() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteView,
    onSuccess: (_answer, view) => client.invalidateQueries({ queryKey: tableKeys.views(view.entity) }),
  });
}
