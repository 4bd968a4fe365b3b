import { useMutation } from '@tanstack/react-query';
import { dataProvider, type ExportFormat, type ListParams } from '../../../lib/data-provider';

export interface ExportInput {
  table: string;
  params: ListParams;
  format: ExportFormat;
}

/** Asks the server for the current view as CSV or XLSX and saves it under the server's file name. */
export async function exportRows({ table, params, format }: ExportInput): Promise<string> {
  const file = await dataProvider.exportRows(table, { ...params, page: 1, perPage: undefined }, format);
  const name = file.filename ?? `${table}.${format}`;
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

export function useExportRows() {
  return useMutation({ mutationFn: exportRows });
}
