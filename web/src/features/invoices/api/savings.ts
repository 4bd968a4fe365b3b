import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type DownloadedFile } from '../../../lib/api-client';
import { invoiceKeys } from './keys';

/** The groups GET /invoices/savings sums by. */
export const SAVINGS_GROUPS = ['year', 'customergroup', 'company', 'pos'] as const;
export type SavingsGroup = (typeof SAVINGS_GROUPS)[number];

/** Claimed, accepted and realised amounts (decimal strings with two places). */
export interface SavingsAmounts {
  claimed: string;
  accepted: string;
  realised: string;
}

export interface SavingsRow extends SavingsAmounts {
  key: number;
  label: string;
}

/** The answer of GET /invoices/savings. */
export interface SavingsAnswer {
  group_by: SavingsGroup;
  year?: number;
  rows: SavingsRow[];
  total: SavingsAmounts;
}

const query = (groupBy: SavingsGroup, year: number | null) => ({ group_by: groupBy, ...(year ? { year } : {}) });

export function useSavings(groupBy: SavingsGroup, year: number | null) {
  return useQuery({
    queryKey: invoiceKeys.savings(groupBy, year),
    queryFn: ({ signal }) => api.get<SavingsAnswer>('/invoices/savings', { signal, query: query(groupBy, year) }),
    placeholderData: keepPreviousData,
  });
}

/** Downloads the savings as CSV or XLSX, made by the server. */
export async function downloadSavings(groupBy: SavingsGroup, year: number | null, format: 'csv' | 'xlsx'): Promise<void> {
  const file = await api.get<DownloadedFile>('/invoices/savings', { query: { ...query(groupBy, year), format }, responseType: 'blob' });
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? `savings-${groupBy}.${format}`;
  link.click();
  URL.revokeObjectURL(url);
}
