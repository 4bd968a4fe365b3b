/**
 * The index clause calls (issue 13, decision 0011): the price index series and
 * its values (generic API), the import, the evaluation run, approve and
 * reject, the adjustment letter and a contract's payment schedule.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type DownloadedFile } from '../../../lib/api-client';
import { dataProvider, type FilterNode } from '../../../lib/data-provider';
import { i18n } from '../../../lib/i18n-instance';
import type { Row } from '../../../lib/table-definition';
import { uploadError, uploadWithProgress } from '../../../lib/upload';
import { tableKeys } from '../../tables/api/keys';
import type { Adjustment, Explanation, ImportSummary, RunAnswer, Schedule } from '../model/types';

export const indexKeys = {
  all: ['indexation'] as const,
  values: (id: number) => ['indexation', 'values', id] as const,
  adjustments: (filter: unknown) => ['indexation', 'adjustments', i18n.language, filter] as const,
  schedule: (contract: number, from: string, to: string) => ['indexation', 'schedule', contract, from, to] as const,
  explanations: (ids: number[]) => ['indexation', 'explanations', i18n.language, ids] as const,
};

/** Every value of a series, oldest first (a series has a few hundred months). */
export function usePriceIndexValues(id: number) {
  return useQuery({
    queryKey: indexKeys.values(id),
    queryFn: async ({ signal }) => {
      const answer = await dataProvider.list(
        'priceindexvalue',
        { data: { priceindex_id: id }, orderBy: 'priceindexvalue_month', orderDir: 'ASC', perPage: 5000 },
        signal,
      );
      return answer.data.data;
    },
    staleTime: 60_000,
  });
}

/**
 * Uploads an index file (multipart field `file`) with upload progress (0..1).
 * XMLHttpRequest, since fetch reports no upload progress; the token is the
 * session's, refreshed once when the server answers 401, as the API client does.
 */
export async function uploadIndexFile(id: number, file: File, onProgress: (part: number) => void): Promise<ImportSummary> {
  const form = new FormData();
  form.append('file', file);
  const answer = await uploadWithProgress(`/priceindexes/${id}/import`, form, onProgress);
  if (answer.status >= 200 && answer.status < 300) {
    onProgress(1);
    return answer.data as ImportSummary;
  }
  throw uploadError(answer);
}

/** Index adjustments matching `filter` (with their labels), oldest effective date first. */
export function useAdjustments(filter: FilterNode[], data?: Record<string, unknown>, enabled = true) {
  return useQuery({
    queryKey: indexKeys.adjustments({ filter, data }),
    queryFn: async ({ signal }) => {
      const answer = await dataProvider.list(
        'indexadjustment',
        { filter, data, orderBy: 'indexadjustment_effective_date', orderDir: 'ASC', perPage: 2000 },
        signal,
      );
      return answer.data.data as unknown as Adjustment[];
    },
    enabled,
  });
}

/**
 * POST /indexadjustments/explanations: the rule of each adjustment in words, in
 * the user's language, rendered by the server from the rule stored with the
 * adjustment (the same text the letter prints), by adjustment id.
 */
export function useExplanations(ids: number[]) {
  return useQuery({
    queryKey: indexKeys.explanations(ids),
    queryFn: async ({ signal }) => {
      const answer = await api.post<{ explanations: Explanation[] | null }>('/indexadjustments/explanations', { ids }, { signal, silent: true });
      return new Map((answer.explanations ?? []).map((e) => [e.indexadjustment_id, e]));
    },
    enabled: ids.length > 0,
    staleTime: 60_000,
  });
}

/** After a run or a decision: adjustments, payments, schedules and the generic lists change. */
function useInvalidate() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: indexKeys.all }),
      client.invalidateQueries({ queryKey: tableKeys.all }),
    ]);
}

/** POST /indexadjustments/run, for all the caller sees or the given payments. */
export function useRunEvaluation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (ids?: number[]) =>
      api.post<RunAnswer>('/indexadjustments/run', ids ? { recurringpayment_ids: ids } : {}, { silent: true }),
    onSettled: invalidate,
  });
}

/** POST /indexadjustments/{id}/approve or /reject. */
export function useDecideAdjustment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, decision }: { id: number; decision: 'approve' | 'reject' }) =>
      api.post<Row>(`/indexadjustments/${id}/${decision}`, undefined, { silent: true }),
    onSettled: invalidate,
  });
}

/** Fetches the adjustment letter with the session's token and saves it (no token in any URL). */
export async function downloadLetter(id: number, lang: string): Promise<void> {
  const file = await api.get<DownloadedFile>(`/indexadjustments/${id}/letter.pdf`, { query: { lang }, responseType: 'blob' });
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? `index-adjustment-${id}-${lang}.pdf`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** GET /contracts/{id}/schedule for the months from..to (YYYY-MM). */
export function useSchedule(contract: number, from: string, to: string, enabled = true) {
  return useQuery({
    queryKey: indexKeys.schedule(contract, from, to),
    queryFn: ({ signal }) => api.get<Schedule>(`/contracts/${contract}/schedule`, { query: { from, to }, signal, silent: true }),
    enabled,
  });
}
