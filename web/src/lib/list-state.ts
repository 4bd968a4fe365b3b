/**
 * The state of a list screen (search, sort, page, page size, filters,
 * visible columns) and its round trip through the URL, so every view is
 * bookmarkable and shareable.
 *
 *   ?q=berg&sort=pos_name&dir=desc&page=2&size=100&cols=pos_name,company_id
 *    &f=[["pos_first_year","between",[2000,2010]],["company_id","in",[3]]]
 */
import type { FilterCondition, FilterOp, FilterScalar, SortDirection } from './data-provider';

export interface ListState {
  search: string;
  sort: { field: string; dir: SortDirection } | null;
  page: number;
  perPage: number;
  filters: FilterCondition[];
  /** Visible columns in display order; null: the definition's default. */
  columns: string[] | null;
}

/** The page sizes the user can choose. */
export const PAGE_SIZES = [50, 100, 500, 1000, 100000] as const;

/** Tables whose default page size differs from the general 100,000. */
const DEFAULT_PAGE_SIZE: Record<string, number> = { location: 10 };

export function defaultPageSize(table: string): number {
  return DEFAULT_PAGE_SIZE[table] ?? 100000;
}

/** The page sizes offered for a table (its default included). */
export function pageSizesFor(table: string): number[] {
  const sizes: number[] = [...PAGE_SIZES];
  const own = defaultPageSize(table);
  if (!sizes.includes(own)) sizes.unshift(own);
  return sizes;
}

export function defaultListState(table: string): ListState {
  return { search: '', sort: null, page: 1, perPage: defaultPageSize(table), filters: [], columns: null };
}

const OPS: readonly FilterOp[] = [
  'eq',
  'ne',
  'lt',
  'lte',
  'gt',
  'gte',
  'contains',
  'starts_with',
  'in',
  'not_in',
  'is_null',
  'not_null',
  'between',
];

function isScalar(v: unknown): v is FilterScalar {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function parseFilters(raw: string | null): FilterCondition[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    const out: FilterCondition[] = [];
    for (const item of parsed) {
      if (!Array.isArray(item) || typeof item[0] !== 'string' || !OPS.includes(item[1] as FilterOp)) continue;
      const [field, op, value] = item as [string, FilterOp, unknown];
      if (op === 'is_null' || op === 'not_null') out.push({ field, op });
      else if (Array.isArray(value) && value.every(isScalar)) out.push({ field, op, value });
      else if (isScalar(value)) out.push({ field, op, value });
    }
    return out;
  } catch {
    return [];
  }
}

/** Reads the list state of `table` from the query string. */
export function decodeListState(params: URLSearchParams, table: string): ListState {
  const state = defaultListState(table);
  state.search = params.get('q') ?? '';
  const sort = params.get('sort');
  if (sort) state.sort = { field: sort, dir: params.get('dir') === 'desc' ? 'DESC' : 'ASC' };
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page >= 1) state.page = page;
  const size = Number(params.get('size'));
  if (pageSizesFor(table).includes(size)) state.perPage = size;
  state.filters = parseFilters(params.get('f'));
  const cols = params.get('cols');
  if (cols) state.columns = cols.split(',').filter(Boolean);
  return state;
}

/** Writes the list state into a query string, leaving defaults out. Other parameters are kept. */
export function encodeListState(state: ListState, table: string, base = new URLSearchParams()): URLSearchParams {
  const params = new URLSearchParams(base);
  for (const key of ['q', 'sort', 'dir', 'page', 'size', 'f', 'cols']) params.delete(key);
  if (state.search) params.set('q', state.search);
  if (state.sort) {
    params.set('sort', state.sort.field);
    params.set('dir', state.sort.dir === 'DESC' ? 'desc' : 'asc');
  }
  if (state.page > 1) params.set('page', String(state.page));
  if (state.perPage !== defaultPageSize(table)) params.set('size', String(state.perPage));
  if (state.filters.length > 0) {
    params.set('f', JSON.stringify(state.filters.map((c) => (c.value === undefined ? [c.field, c.op] : [c.field, c.op, c.value]))));
  }
  if (state.columns) params.set('cols', state.columns.join(','));
  return params;
}

/** Replaces (or, with value undefined, removes) the conditions of `field`. */
export function setFieldFilter(filters: FilterCondition[], field: string, conditions: FilterCondition[]): FilterCondition[] {
  return [...filters.filter((c) => c.field !== field), ...conditions];
}
