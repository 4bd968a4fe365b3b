import type { ListAnswer, ListParams } from './data-provider';

/**
 * Keyset paging (issue 19, decision 0031): a page sorted by a stored field
 * answers `next`, the token that continues the list after its last row.
 * The grid keeps it with the list it belongs to and sends it as `after`
 * when the user moves one page forward; jumps (any other page, or another
 * filter, sort or size) use the page number.
 */
export interface Continuation {
  /** The list the token continues: entity and params without the page. */
  key: string;
  /** The page the token reads. */
  page: number;
  after: string;
}

/** The identity of a list apart from its page. */
export function continuationKey(entity: string, params: ListParams): string {
  const { page: _page, from: _from, after: _after, count: _count, ...rest } = params;
  return JSON.stringify([entity, rest]);
}

/** The token of an answer for the page after `params.page`, if it has one. */
export function nextContinuation(entity: string, params: ListParams, answer: ListAnswer | undefined): Continuation | null {
  const next = answer?.data.next;
  if (!next || params.page === undefined || params.from !== undefined) return null;
  return { key: continuationKey(entity, params), page: params.page + 1, after: next };
}

/** params with `after` when the continuation reads exactly this page of this list. */
export function withContinuation(entity: string, params: ListParams, c: Continuation | null): ListParams {
  if (!c || c.page !== params.page || c.key !== continuationKey(entity, params)) return params;
  return { ...params, after: c.after };
}
