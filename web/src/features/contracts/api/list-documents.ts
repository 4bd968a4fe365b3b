import { useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { contractKeys } from './keys';

/** The relation that holds a contract's documents. */
export const CONTRACT_DOCUMENTS = 'contract_document_rel';

/** The documents linked to contract id (the generic relation read). */
export function useContractDocuments(id: number) {
  return useQuery({
    queryKey: contractKeys.documents(id),
    queryFn: ({ signal }) => dataProvider.list(CONTRACT_DOCUMENTS, { data: { contract_id: id }, perPage: 1000 }, signal),
  });
}
