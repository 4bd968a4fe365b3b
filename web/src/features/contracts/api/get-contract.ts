import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Row } from '../../../lib/table-definition';
import { contractKeys } from './keys';

/** GET /contracts/{id}: the contract with its relations (recurringpayments, deadlines, ...). */
export type Contract = Row & { contract_id: number; row_version: number; recurringpayments?: Row[]; deadlines?: Row[] };

export interface ContractAnswer {
  data: Contract;
}

export function getContract(id: number, signal?: AbortSignal): Promise<ContractAnswer> {
  return api.get<ContractAnswer>(`/contracts/${id}`, { signal });
}

/** The contract the steps edit; disabled until it exists. */
export function useContract(id: number | null) {
  return useQuery({
    queryKey: contractKeys.contract(id ?? 0),
    queryFn: ({ signal }) => getContract(id ?? 0, signal),
    enabled: id !== null,
  });
}
