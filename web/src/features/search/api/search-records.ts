import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { RecordEntity } from '../model/record-links';

/** One record the header search found (GET /search/records). */
export interface RecordHit {
  id: number;
  /** The entity's label fields, as a reference to the record shows it. */
  label: string;
  /** What tells records of the same name apart: a branch number, the point of sale, the company. */
  detail?: string;
  /** A ticket's board, whose kanban opens the ticket. */
  board_id?: number;
}

/** The hits of one entity; has_more: its list holds more matches. */
export interface RecordGroup {
  entity: RecordEntity;
  hits: RecordHit[];
  has_more: boolean;
}

export interface RecordSearchAnswer {
  q: string;
  groups: RecordGroup[];
}

/** Hits per entity. */
export const RECORD_HITS = 5;

/** The shortest word the record search looks for (the lists' keyword search, MinSearchLen). */
export const MIN_RECORD_SEARCH = 2;

/** True when the server looks for `q`: two characters or more, or a number (a ticket's "#12"). */
export function searchesRecords(q: string): boolean {
  const word = q.trim();
  return word.length >= MIN_RECORD_SEARCH || /^#?\d+$/.test(word);
}

export const recordSearchKeys = {
  search: (q: string, entities: readonly string[]) => ['search', 'records', q, entities.join(',')] as const,
};

/**
 * GET /search/records: up to five records per entity matching `q`, among
 * `entities` (those the user may list); the server applies the same rights,
 * tenant scope and keyword search as the lists.
 */
export function searchRecords(q: string, entities: readonly RecordEntity[], signal?: AbortSignal): Promise<RecordSearchAnswer> {
  return api.get<RecordSearchAnswer>('/search/records', {
    signal,
    silent: true,
    query: { q: q.trim(), entities: entities.join(','), limit: RECORD_HITS },
  });
}

export const recordSearchQueryOptions = (q: string, entities: readonly RecordEntity[]) =>
  queryOptions({
    queryKey: recordSearchKeys.search(q.trim(), entities),
    queryFn: ({ signal }) => searchRecords(q, entities, signal),
    staleTime: 15_000,
    placeholderData: keepPreviousData,
  });

/** The record search for `q`; asks nothing when `q` is too short or the user may list none of the entities. */
export function useRecordSearch(q: string, entities: readonly RecordEntity[]) {
  return useQuery({ ...recordSearchQueryOptions(q, entities), enabled: entities.length > 0 && searchesRecords(q) });
}
