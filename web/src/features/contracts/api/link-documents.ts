import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ContractAnswer } from './get-contract';
import { contractKeys } from './keys';

/** One uploaded document to link, with its type, sub type and role in the contract. */
export interface DocumentObject {
  document_id: number;
  documenttype_id?: number | null;
  subdocumenttype_id?: number | null;
  documentcontracttype_id?: number | null;
}

/** POST /contracts/step/7: links uploaded documents to the contract, all or nothing. */
export function linkDocuments(input: { contract_id: number; documentsobjects: DocumentObject[] }): Promise<ContractAnswer> {
  return api.post<ContractAnswer>('/contracts/step/7', input, { silent: true });
}

export function useLinkDocuments() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: linkDocuments,
    onSuccess: (answer) => {
      client.setQueryData(contractKeys.contract(answer.data.contract_id), answer);
      void client.invalidateQueries({ queryKey: contractKeys.documents(answer.data.contract_id) });
      void client.invalidateQueries({ queryKey: ['tables'] });
    },
  });
}
