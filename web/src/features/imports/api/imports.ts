/**
 * The spreadsheet import calls (issue 17, decision 0017): upload, validate
 * with a mapping, commit (large imports in the background, polled for
 * their progress) and undo.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type DownloadedFile } from '../../../lib/api-client';
import { tableKeys } from '../../tables/api/keys';
import type { ImportRecord, UploadAnswer, ValidateAnswer } from '../model/types';

export const importKeys = {
  all: ['imports'] as const,
  one: (id: number) => ['imports', id] as const,
};

/** POST /uploadxlsx/ with the multipart fields entity, file and, for rows imported into a parent record (an invoice's positions), parent_id. */
export function useUploadImport() {
  return useMutation({
    mutationFn: ({ entity, file, parentId }: { entity: string; file: File; parentId?: number }) => {
      const form = new FormData();
      form.append('entity', entity);
      if (parentId) form.append('parent_id', String(parentId));
      form.append('file', file);
      return api.upload<UploadAnswer>('/uploadxlsx/', form, { silent: true });
    },
  });
}

/** POST /imports/{id}/validate with the mapping {column heading: field}. */
export function useValidateImport() {
  return useMutation({
    mutationFn: ({ id, mapping }: { id: number; mapping: Record<string, string> }) =>
      api.post<ValidateAnswer>(`/imports/${id}/validate`, { mapping }, { silent: true }),
  });
}

/** POST /imports/{id}/commit: the committed import, or the running one (202). */
export function useCommitImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<ImportRecord>(`/imports/${id}/commit`, undefined, { silent: true }),
    onSuccess: (answer) => {
      client.setQueryData(importKeys.one(answer.import_id), answer);
      return client.invalidateQueries({ queryKey: tableKeys.all });
    },
  });
}

/** POST /imports/{id}/undo. */
export function useUndoImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<ImportRecord>(`/imports/${id}/undo`, undefined, { silent: true }),
    onSuccess: (answer) => {
      client.setQueryData(importKeys.one(answer.import_id), answer);
      return client.invalidateQueries({ queryKey: tableKeys.all });
    },
  });
}

/** GET /imports/{id}, polled every second while its commit job is enqueued or runs. */
export function useImport(id: number | null, running: boolean) {
  return useQuery({
    queryKey: importKeys.one(id ?? 0),
    queryFn: ({ signal }) => api.get<ImportRecord>(`/imports/${id}`, { signal }),
    enabled: id !== null && running,
    refetchInterval: (q) => (q.state.data?.progress || q.state.data?.state === 'committing' ? 1000 : false),
  });
}

/** Fetches the template workbook of `entity` with the session's token and saves it. */
export async function downloadTemplate(entity: string): Promise<void> {
  const file = await api.get<DownloadedFile>('/imports/template', { query: { entity }, responseType: 'blob' });
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? `${entity}-import.xlsx`;
  link.click();
  URL.revokeObjectURL(url);
}
