import type { ListState } from '../../../lib/list-state';
import type { SavedView } from '../api/saved-view';

/** A stable text of what a view restores, to compare a view with the list's state. */
function viewKey(filters: unknown, search: string, sortField: string, sortDir: string, columns: string[] | null | undefined): string {
  return JSON.stringify([filters ?? [], search, sortField, sortField ? sortDir : '', columns?.length ? columns : null]);
}

/**
 * The saved view the list shows now: the one whose filters, search, sort and
 * columns equal the list's state. None once the user changes the list away
 * from it (page and page size do not count).
 */
export function activeView(views: SavedView[], state: ListState): SavedView | undefined {
  const current = viewKey(state.filters, state.search, state.sort?.field ?? '', state.sort?.dir ?? 'ASC', state.columns);
  return views.find((view) => {
    const s = view.settings ?? {};
    const filters = (s.filter ?? []).filter((f) => typeof f === 'object' && f !== null && 'field' in f);
    const key = viewKey(filters, s.filter_all ?? '', s.order_by ?? '', s.order_dir === 'DESC' ? 'DESC' : 'ASC', s.columns);
    return key === current;
  });
}
