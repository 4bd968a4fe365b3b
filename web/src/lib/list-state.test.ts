import { describe, expect, it } from 'vitest';
import { listBody } from './data-provider';
import { decodeListState, defaultListState, encodeListState, type ListState, pageSizesFor } from './list-state';

describe('list state in the URL', () => {
  it('round-trips every part: search, sort, page, size, filters, columns', () => {
    const state: ListState = {
      search: 'berg',
      sort: { field: 'company_id', dir: 'DESC' },
      page: 3,
      perPage: 500,
      filters: [
        { field: 'pos_name', op: 'contains', value: 'Halle' },
        { field: 'pos_first_year', op: 'between', value: [2000, 2010] },
        { field: 'company_id', op: 'in', value: [1001, 1002] },
        { field: 'pos_opening_date', op: 'between', value: ['2024-01-01', '2024-01-31'] },
        { field: 'pos_name_external', op: 'is_null' },
        { field: 'bankdata_is_active', op: 'eq', value: 1 },
      ],
      columns: ['pos_name', 'company_id', 'pos_first_year'],
    };
    const params = encodeListState(state, 'pos');
    const back = decodeListState(new URLSearchParams(params.toString()), 'pos');
    expect(back).toEqual(state);
  });

  it('leaves defaults out of the URL', () => {
    expect(encodeListState(defaultListState('pos'), 'pos').toString()).toBe('');
  });

  it('keeps other query parameters', () => {
    const params = encodeListState({ ...defaultListState('pos'), page: 2 }, 'pos', new URLSearchParams('edit=true'));
    expect(params.get('edit')).toBe('true');
    expect(params.get('page')).toBe('2');
  });

  it('ignores malformed or unknown parts', () => {
    const state = decodeListState(new URLSearchParams('page=-4&size=7&f=[["a","drop",1],["b","eq",{}],["c","eq",2]]&dir=up&sort=x'), 'pos');
    expect(state.page).toBe(1);
    expect(state.perPage).toBe(100000);
    expect(state.filters).toEqual([{ field: 'c', op: 'eq', value: 2 }]);
    expect(state.sort).toEqual({ field: 'x', dir: 'ASC' });
    expect(decodeListState(new URLSearchParams('f=not-json'), 'pos').filters).toEqual([]);
  });

  it('uses 100,000 rows per page by default, 10 for locations', () => {
    expect(defaultListState('pos').perPage).toBe(100000);
    expect(defaultListState('company').perPage).toBe(100000);
    expect(defaultListState('location').perPage).toBe(10);
    expect(pageSizesFor('pos')).toEqual([50, 100, 500, 1000, 100000]);
    expect(pageSizesFor('location')[0]).toBe(10);
  });

  it('turns the state into a read-rich body; the search starts at 2 characters', () => {
    expect(listBody('pos', { search: 'b', page: 2, perPage: 50, orderBy: 'pos_name', orderDir: 'DESC', count: true })).toEqual({
      action: 'read-rich',
      entity: 'pos',
      per_page: 50,
      current_page: 2,
      order_by: 'pos_name',
      order_dir: 'DESC',
      count: true,
    });
    expect(listBody('pos', { search: ' be ' }).filter_all).toBe('be');
  });
});
