import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateRecord } from '../../../lib/record-keys';
import { tableKeys } from '../../tables/api/keys';

/** The answer of POST /contradiction_generators/start. */
export interface GeneratorAnswer {
  invoices: number;
  changed: number[];
  contradictions: number[];
  points_created: number;
  points_removed: number;
  points_kept: number;
}

export function runGenerator(invoiceIds: number[]): Promise<GeneratorAnswer> {
  return api.post<GeneratorAnswer>('/contradiction_generators/start', { invoice_ids: invoiceIds }, { silent: true });
}

/** Runs the contradiction generator and refreshes the invoices and the contradiction lists. */
export function useRunGenerator() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runGenerator,
    onSuccess: async (_answer, ids) => {
      await Promise.all([
        ...ids.map((id) => invalidateRecord(client, 'invoice', id)),
        client.invalidateQueries({ queryKey: tableKeys.lists('contradiction') }),
        client.invalidateQueries({ queryKey: tableKeys.lists('contradictionpoint') }),
      ]);
    },
  });
}
