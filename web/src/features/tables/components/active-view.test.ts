import { describe, expect, it } from 'vitest';
import type { ListState } from '../../../lib/list-state';
import type { SavedView } from '../api/saved-view';
import { activeView } from './active-view';

const base: ListState = { search: '', sort: null, page: 1, perPage: 50, filters: [], columns: null };
const view: SavedView = {
  savedview_id: 7,
  entity: 'pos',
  name: 'Nordhandel',
  shared: 'private',
  settings: { filter: [{ field: 'company_id', op: 'in', value: [2] }], filter_all: '', order_by: 'name', order_dir: 'DESC', columns: [], per_page: 100 },
};

describe('activeView', () => {
  it('finds the view whose filters and sort the list shows', () => {
    const state: ListState = { ...base, filters: [{ field: 'company_id', op: 'in', value: [2] }], sort: { field: 'name', dir: 'DESC' }, page: 3 };
    expect(activeView([view], state)?.name).toBe('Nordhandel');
  });
  it('is cleared once the filters change away from the view', () => {
    const state: ListState = { ...base, filters: [{ field: 'company_id', op: 'in', value: [2, 3] }], sort: { field: 'name', dir: 'DESC' } };
    expect(activeView([view], state)).toBeUndefined();
    expect(activeView([view], { ...base, filters: view.settings.filter as ListState['filters'] })).toBeUndefined();
  });
  it('an unfiltered list matches no view with filters', () => {
    expect(activeView([view], base)).toBeUndefined();
  });
});
