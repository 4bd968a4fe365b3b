/**
 * The generic data provider: the small, honest contract the table-definition
 * screens work through (list, one, create, update, delete, relations,
 * history, export, definitions), over POST /api/?{entity} and
 * GET /api/definitions/{entity}. Every call goes through the one HTTP client.
 */
import { api, type DownloadedFile } from './api-client';
import type { AttributeDefinition, RelationDefinition, Row, TableDefinition } from './table-definition';

/** Filter operators of the generic API. */
export type FilterOp =
  | 'eq'
  | 'ne'
  | 'lt'
  | 'lte'
  | 'gt'
  | 'gte'
  | 'contains'
  | 'starts_with'
  | 'in'
  | 'not_in'
  | 'is_null'
  | 'not_null'
  | 'between';

export type FilterScalar = string | number | boolean;

/** One condition: {field, op, value}. */
export interface FilterCondition {
  field: string;
  op: FilterOp;
  value?: FilterScalar | FilterScalar[] | null;
}

/** A filter: a list (and) or a tree. */
export type FilterNode = FilterCondition | { and: FilterNode[] } | { or: FilterNode[] } | { not: FilterNode };

export type SortDirection = 'ASC' | 'DESC';

export interface ListParams {
  filter?: FilterNode[];
  search?: string;
  orderBy?: string;
  orderDir?: SortDirection;
  page?: number;
  /** 1-based position of the first row (instead of page). */
  from?: number;
  /** The `next` token of the previous page (keyset paging; see keyset-paging.ts). */
  after?: string;
  perPage?: number;
  count?: boolean;
  columns?: string[];
  /** Equality conditions; a relation read names its owner here. */
  data?: Record<string, unknown>;
}

export interface ListPage {
  data: Row[];
  current_page: number;
  per_page: number;
  from: number | null;
  to: number | null;
  has_more: boolean;
  total?: number;
  /** Set when total was counted at that moment and is being counted again (decision 0057). */
  total_as_of?: string;
  /** Continues the list after this page (send as `after`); only when sorted by a stored field. */
  next?: string;
}

export interface ListAnswer {
  data: ListPage;
  attributes: AttributeDefinition[];
}

export interface ReadAnswer {
  data: Row;
  attributes: AttributeDefinition[];
  relations: RelationDefinition[];
}

/** One entry of a record's history (from a trackrecord row). */
export interface HistoryEntry {
  timestamp: string;
  type: string;
  user: string;
  changes: Record<string, [unknown, unknown]>;
}

/** Reads a trackrecord row: trackrecord_changes is JSON text {field: [old, new]}. */
export function historyEntry(row: Row): HistoryEntry {
  let changes: Record<string, [unknown, unknown]> = {};
  const raw = row.trackrecord_changes ?? row.changes;
  if (typeof raw === 'string' && raw) {
    try {
      changes = JSON.parse(raw) as Record<string, [unknown, unknown]>;
    } catch {
      changes = {};
    }
  } else if (raw && typeof raw === 'object') {
    changes = raw as Record<string, [unknown, unknown]>;
  }
  return {
    timestamp: String(row.trackrecord_timestamp ?? row.timestamp ?? ''),
    type: String(row.trackrecord_type ?? row.type ?? ''),
    user: String(row.user_id__label ?? row.user ?? row.user_id ?? ''),
    changes: changes ?? {},
  };
}

export type ExportFormat = 'csv' | 'xlsx';

/** What the options of a list field are asked for. */
export interface OptionsParams {
  /** The list field of `entity`. */
  field: string;
  /** The record being edited: the server narrows by its sibling fields. */
  data?: Record<string, unknown>;
  /** Keyword (2+ characters, else ignored). */
  search?: string;
  perPage?: number;
  page?: number;
}

/** One option of a list field: the referenced row's id and its label. */
export interface OptionItem {
  value: number | string;
  label: string;
}

/** The answer of the options action. */
export interface OptionsAnswer {
  data: OptionItem[];
  has_more: boolean;
}

const API_PATH = (entity: string) => `/api/?${encodeURIComponent(entity)}`;

/** The read-rich body of list params. */
export function listBody(entity: string, params: ListParams): Record<string, unknown> {
  const body: Record<string, unknown> = {
    action: 'read-rich',
    entity,
    per_page: params.perPage ?? 100000,
  };
  if (params.from !== undefined) body.from = params.from;
  else body.current_page = params.page ?? 1;
  if (params.after) body.after = params.after;
  if (params.orderBy) {
    body.order_by = params.orderBy;
    body.order_dir = params.orderDir ?? 'ASC';
  }
  if (params.filter && params.filter.length > 0) body.filter = params.filter;
  if (params.search && params.search.trim().length >= 2) body.filter_all = params.search.trim();
  if (params.count) body.count = true;
  if (params.columns && params.columns.length > 0) body.columns = params.columns;
  if (params.data) body.data = params.data;
  return body;
}

export const dataProvider = {
  /** A page of rows (entity or relation API name). */
  list(entity: string, params: ListParams = {}, signal?: AbortSignal): Promise<ListAnswer> {
    return api.post<ListAnswer>(API_PATH(entity), listBody(entity, params), { signal });
  },

  /**
   * The rows of `entity` whose `key` is one of `ids`, to name them (a
   * history's references). Silent: a table the caller may not list names
   * nothing, without a notice.
   */
  rowsByKey(entity: string, key: string, ids: readonly number[], signal?: AbortSignal, data?: Record<string, unknown>): Promise<ListAnswer> {
    const body = listBody(entity, { filter: [{ field: key, op: 'in', value: [...ids] }], perPage: ids.length, data });
    return api.post<ListAnswer>(API_PATH(entity), body, { signal, silent: true });
  },

  /**
   * The options of list field `field` of `entity` (the entity being edited,
   * or listed for a filter): the server applies the field's narrowing by the
   * record's sibling fields and the caller's limits, and allows it to anyone
   * who may list, read, create or update `entity`.
   */
  options(entity: string, params: OptionsParams, signal?: AbortSignal): Promise<OptionsAnswer> {
    const body: Record<string, unknown> = {
      action: 'options',
      entity,
      field: params.field,
      data: params.data ?? {},
      per_page: params.perPage ?? 50,
      current_page: params.page ?? 1,
    };
    if (params.search && params.search.trim().length >= 2) body.filter_all = params.search.trim();
    return api.post<OptionsAnswer>(API_PATH(entity), body, { signal });
  },

  /** One record with its definition. */
  one(entity: string, id: number | string, signal?: AbortSignal): Promise<ReadAnswer> {
    return api.post<ReadAnswer>(API_PATH(entity), { action: 'read', entity, id: Number(id) }, { signal });
  },

  /** The served table definition in the interface language. */
  definition(entity: string, signal?: AbortSignal): Promise<TableDefinition> {
    return api.get<TableDefinition>(`/api/definitions/${encodeURIComponent(entity)}`, { signal });
  },

  create(entity: string, data: Record<string, unknown>): Promise<{ data: Row }> {
    return api.post<{ data: Row }>(API_PATH(entity), { action: 'create', entity, data });
  },

  update(entity: string, id: number | string, data: Record<string, unknown>, rowVersion: number | null): Promise<{ data: Row }> {
    return api.post<{ data: Row }>(API_PATH(entity), {
      action: 'update',
      entity,
      id: Number(id),
      data,
      row_version: rowVersion,
    });
  },

  updateField(entity: string, id: number | string, field: string, value: unknown, rowVersion: number | null): Promise<{ data: Row }> {
    return api.post<{ data: Row }>(API_PATH(entity), {
      action: 'update-field',
      entity,
      id: Number(id),
      field,
      value,
      row_version: rowVersion,
    });
  },

  remove(entity: string, id: number | string, rowVersion: number | null): Promise<unknown> {
    return api.post(API_PATH(entity), { action: 'delete', entity, id: Number(id), row_version: rowVersion });
  },

  bulkRemove(entity: string, ids: (number | string)[]): Promise<unknown> {
    return api.post(API_PATH(entity), { action: 'bulk-delete', entity, ids: ids.map(Number) });
  },

  /**
   * Links a record (`ownerId`) through a many-to-many relation
   * ('{table}_{relation}_rel'): data names the other end's key and the link's
   * attributes.
   */
  link(relationApi: string, ownerId: number | string, data: Record<string, unknown>): Promise<unknown> {
    return api.post(API_PATH(relationApi), { action: 'link', entity: relationApi, id: Number(ownerId), data });
  },

  /**
   * Changes the attributes of an existing link (valid_from, valid_to,
   * comment, ...): data names the other end's key and the attributes;
   * attributes not sent keep their values, null clears one. Only links
   * without a key of their own (the server answers 422 for the others).
   */
  updateLink(relationApi: string, ownerId: number | string, data: Record<string, unknown>): Promise<{ data: Row }> {
    return api.post<{ data: Row }>(API_PATH(relationApi), { action: 'update-link', entity: relationApi, id: Number(ownerId), data });
  },

  /** Ends a link: by the other end's key, or by the link's own key. */
  unlink(relationApi: string, ownerId: number | string, data: Record<string, unknown>): Promise<unknown> {
    return api.post(API_PATH(relationApi), { action: 'unlink', entity: relationApi, id: Number(ownerId), data });
  },

  /** The trackrecord rows of one record, newest first (a list answer). */
  history(entity: string, id: number | string, signal?: AbortSignal): Promise<ListAnswer> {
    return api.post<ListAnswer>(API_PATH(entity), { action: 'history', entity, id: Number(id) }, { signal });
  },

  /** The current view as a file, made by the server. */
  exportRows(entity: string, params: ListParams, format: ExportFormat): Promise<DownloadedFile> {
    return api.post<DownloadedFile>(
      API_PATH(entity),
      { ...listBody(entity, params), action: 'export', format },
      { responseType: 'blob' },
    );
  },
};

export type DataProvider = typeof dataProvider;

/** The label of a referenced row from its label columns (address: zip, city, street). */
export function rowLabel(row: Row, labelFields: readonly string[]): string {
  const parts = labelFields
    .map((f) => row[`${f}__label`] ?? row[f])
    .filter((v) => v !== null && v !== undefined && v !== '')
    .map(String);
  return parts.join(' ');
}
