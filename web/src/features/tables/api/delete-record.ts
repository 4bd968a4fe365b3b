import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { tableKeys } from './keys';

export interface DeleteRecordInput {
  table: string;
  id: string | number;
  rowVersion: number | null;
}

export const deleteRecord = ({ table, id, rowVersion }: DeleteRecordInput) => dataProvider.remove(table, id, rowVersion);

export function useDeleteRecord() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteRecord,
    onSuccess: (_answer, input) => client.invalidateQueries({ queryKey: tableKeys.lists(input.table) }),
  });
}
