/**
 * The contract workbook import (/app/import-contract, decision 0017):
 * contracts with their areas, deadlines and recurring payments from one
 * workbook, checked and committed as a whole.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type DownloadedFile } from '../../../lib/api-client';
import { tableKeys } from '../../tables/api/keys';
import type { ContractAnswer } from '../model/types';

function send(path: string, file: File) {
  const form = new FormData();
  form.append('file', file);
  return api.upload<ContractAnswer>(path, form, { silent: true });
}

/** POST /imports-contract/validate: the rows per part and the row errors; nothing is written. */
export function useValidateContractWorkbook() {
  return useMutation({ mutationFn: (file: File) => send('/imports-contract/validate', file) });
}

/** POST /imports-contract/commit: every row or none (422 naming sheet, row and field). */
export function useCommitContractWorkbook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => send('/imports-contract/commit', file),
    onSuccess: () => client.invalidateQueries({ queryKey: tableKeys.all }),
  });
}

/** Fetches the contract template workbook and saves it. */
export async function downloadContractTemplate(): Promise<void> {
  const file = await api.get<DownloadedFile>('/imports-contract/template', { responseType: 'blob' });
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? 'contract-import.xlsx';
  link.click();
  URL.revokeObjectURL(url);
}
