import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { dataProvider } from '../../../lib/data-provider';
import type { Row } from '../../../lib/table-definition';
import { tableKeys } from '../../tables/api/keys';

/** The answer of POST /invoices. */
export interface CreatedInvoice {
  id: number;
  data: Row;
}

/** Creates an invoice with its areas and value types in one call: the server writes all of it or nothing. */
export function createInvoice(body: { data: Record<string, unknown>; value_types: { invoicevaluetype_id: number | null; value: string | null }[] }) {
  return api.post<CreatedInvoice>('/invoices', body, { silent: true });
}

export function useCreateInvoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createInvoice,
    onSuccess: () => client.invalidateQueries({ queryKey: tableKeys.lists('invoice') }),
  });
}

/** The areas of contract `contract` (its relation `areas`, read through `relationApi`). */
export function useContractAreas(relationApi: string | undefined, contract: number | null) {
  return useQuery({
    queryKey: ['invoices', 'contract-areas', relationApi ?? '', contract ?? 0],
    queryFn: async ({ signal }) => (await dataProvider.list(relationApi!, { data: { contract_id: contract }, perPage: 1000 }, signal)).data.data,
    enabled: !!relationApi && !!contract,
  });
}

/** The value types (master data) to pick from. */
export function useValueTypes() {
  return useQuery({
    queryKey: ['invoices', 'value-types'],
    queryFn: async ({ signal }) => (await dataProvider.list('invoicevaluetype', { perPage: 1000, orderBy: 'invoicevaluetype_name' }, signal)).data.data,
  });
}
