import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ContractAnswer } from './get-contract';
import { contractKeys } from './keys';

/** Step 0: the contract's own fields; an existing contract is named by id and row_version. */
export interface BasicDataInput {
  id: number | null;
  rowVersion: number | null;
  data: Record<string, unknown>;
}

/** POST /contracts/step/0 (a new contract) or PUT /contracts/step/0/{id}; answers the contract. */
export function saveBasicData({ id, rowVersion, data }: BasicDataInput): Promise<ContractAnswer> {
  if (id === null) return api.post<ContractAnswer>('/contracts/step/0', data, { silent: true });
  return api.put<ContractAnswer>(`/contracts/step/0/${id}`, { ...data, row_version: rowVersion }, { silent: true });
}

export function useSaveBasicData() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveBasicData,
    onSuccess: (answer) => {
      client.setQueryData(contractKeys.contract(answer.data.contract_id), answer);
      void client.invalidateQueries({ queryKey: ['tables'] });
    },
  });
}
