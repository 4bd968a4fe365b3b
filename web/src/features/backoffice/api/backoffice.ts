/** The Back Office's calls besides the jobs (internal/errorboard/backoffice.go): the mail outbox, the translation edits and the rights generation. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { backofficeKeys } from './keys';

export type MailState = 'pending' | 'retrying' | 'given_up' | 'sent' | 'dismissed';

/** One message of the outbox (GET /backoffice/outbox), without its body. */
export interface OutboxMessage {
  id: number;
  to: string;
  cc: string;
  subject: string;
  created_at: string;
  sent_at: string | null;
  attempts: number;
  max_attempts: number;
  next_attempt_at: string | null;
  error: string;
  state: MailState;
}

/** GET /backoffice/outbox?state=: the newest 200 messages ('' = every state). */
export function useOutbox(state: MailState | '') {
  return useQuery<OutboxMessage[]>({
    queryKey: [...backofficeKeys.all, 'outbox', state],
    queryFn: ({ signal }) =>
      api.get<{ data: OutboxMessage[] }>(`/backoffice/outbox${state ? `?state=${state}` : ''}`, { signal }).then((a) => a.data),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
}

/** Sends a retrying or given-up message again (the error dashboard's retry). */
export function useRetryMail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<void>(`/backoffice/errors/mails/${id}/retry`),
    onSettled: () => client.invalidateQueries({ queryKey: [...backofficeKeys.all, 'outbox'] }),
  });
}

export type TranslationTable = 'translation' | 'attribute_i18n';

/** A text of a translation table beside the text the product ships for it. */
export interface TranslationRow {
  table: TranslationTable;
  id: number;
  key: string;
  lang: string;
  text: string;
  shipped: string;
  /** Kept over the shipped text of later versions. */
  edited: boolean;
  row_version: number;
}

/** GET /backoffice/translations: the edited texts (all: every text), narrowed by q. */
export function useTranslations(all: boolean, q: string) {
  const params = new URLSearchParams();
  if (all) params.set('all', '1');
  if (q.trim()) params.set('q', q.trim());
  const query = params.toString();
  return useQuery<{ data: TranslationRow[]; total: number }>({
    queryKey: [...backofficeKeys.all, 'translations', all, q.trim()],
    queryFn: ({ signal }) =>
      api.get<{ data: TranslationRow[]; total: number }>(`/backoffice/translations${query ? `?${query}` : ''}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** PUT /backoffice/translations/{table}/{id} (text) or POST …/revert (the shipped text). */
export function useChangeTranslation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ row, text }: { row: TranslationRow; text: string | null }) =>
      text === null
        ? api.post<TranslationRow>(`/backoffice/translations/${row.table}/${row.id}/revert`, { row_version: row.row_version })
        : api.put<TranslationRow>(`/backoffice/translations/${row.table}/${row.id}`, { text, row_version: row.row_version }),
    onSettled: () => client.invalidateQueries({ queryKey: [...backofficeKeys.all, 'translations'] }),
  });
}

const rightsKey = [...backofficeKeys.all, 'rights-generation'] as const;

/** GET /backoffice/rights-generation. */
export function useRightsGeneration() {
  return useQuery({
    queryKey: rightsKey,
    queryFn: ({ signal }) => api.get<{ generation: number }>('/backoffice/rights-generation', { signal }),
  });
}

/** POST /backoffice/rights-generation/bump. */
export function useBumpRights() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ generation: number }>('/backoffice/rights-generation/bump'),
    onSuccess: (g) => client.setQueryData(rightsKey, g),
  });
}
