import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { tableKeys } from './keys';

export interface BulkDeleteInput {
  table: string;
  ids: (string | number)[];
}

/** Deletes all rows or none (409 names what still refers to a row). */
export const bulkDelete = ({ table, ids }: BulkDeleteInput) => dataProvider.bulkRemove(table, ids);

export function useBulkDelete() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: bulkDelete,
    onSuccess: (_answer, input) => client.invalidateQueries({ queryKey: tableKeys.lists(input.table) }),
  });
}
