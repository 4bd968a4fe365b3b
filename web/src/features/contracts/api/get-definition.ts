import { useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { contractKeys } from './keys';

/** The served definition of an entity the steps show (contract, recurringpayment, document). */
export function useEntityDefinition(entity: string) {
  return useQuery({
    queryKey: contractKeys.definition(entity),
    queryFn: ({ signal }) => dataProvider.definition(entity, signal),
    staleTime: 120_000,
  });
}
