import type { FilterNode, SortDirection } from '../../../lib/data-provider';

/** Who sees a saved view (the server's words): only its owner, a role, everyone. */
export type ViewSharing = 'private' | 'role' | 'all';

/** What a view restores in a list. */
export interface ViewSettings {
  filter?: FilterNode[] | null;
  filter_all?: string;
  order_by?: string;
  order_dir?: SortDirection;
  columns?: string[];
  per_page?: number;
}

/** A saved list view (GET/POST/PUT/DELETE /api/views). */
export interface SavedView {
  savedview_id?: number;
  entity: string;
  name: string;
  shared: ViewSharing;
  role_id?: number | null;
  user_id?: number;
  mine?: boolean;
  settings: ViewSettings;
  row_version?: number;
}

