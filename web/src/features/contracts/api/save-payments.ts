import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ContractAnswer } from './get-contract';
import { contractKeys } from './keys';

/**
 * Step 2: the rows to create (no recurringpayment_id) or update (with id and
 * row_version); the contract's other rows stay unless named in remove_ids.
 */
export interface PaymentsInput {
  contract_id: number;
  recurringpayments: Record<string, unknown>[];
  remove_ids: number[];
}

/** PUT /contracts/step/2: all rows or none; a row's errors come at loc ["body", "recurringpayments", i, field]. */
export function savePayments(input: PaymentsInput): Promise<ContractAnswer> {
  return api.put<ContractAnswer>('/contracts/step/2', input, { silent: true });
}

export function useSavePayments() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: savePayments,
    onSuccess: (answer) => {
      client.setQueryData(contractKeys.contract(answer.data.contract_id), answer);
      void client.invalidateQueries({ queryKey: ['tables'] });
    },
  });
}
