/**
 * GET /documents/links/{id}: a document's five URLs, each with a link token
 * valid 5 minutes for this document and this user (decision 0018).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface DocumentLinks {
  download: string;
  download_stamp: string;
  preview: string;
  preview_stamp: string;
  sign_image: string;
  /** The document's type; null while it has none: no stamped copy, no signature. */
  documenttype_id: number | null;
  expires_at: string;
}

/** Refetch before the 5 minutes of a link token run out. */
const REFRESH_MS = 4 * 60 * 1000;

export function getDocumentLinks(id: string | number, signal?: AbortSignal): Promise<DocumentLinks> {
  return api.get<DocumentLinks>(`/documents/links/${encodeURIComponent(String(id))}`, { signal });
}

export function documentLinksQuery(id: string | number) {
  return queryOptions({
    queryKey: ['documents', 'links', String(id)],
    queryFn: ({ signal }) => getDocumentLinks(id, signal),
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
    retry: false,
  });
}

export function useDocumentLinks(id: string | number) {
  return useQuery(documentLinksQuery(id));
}
