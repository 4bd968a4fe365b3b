import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { tableKeys } from './keys';

export interface UpdateRecordInput {
  table: string;
  id: string | number;
  data: Record<string, unknown>;
  rowVersion: number | null;
}

export const updateRecord = ({ table, id, data, rowVersion }: UpdateRecordInput) => dataProvider.update(table, id, data, rowVersion);

export function useUpdateRecord() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateRecord,
    onSuccess: (_answer, input) => {
      void client.invalidateQueries({ queryKey: tableKeys.lists(input.table) });
      void client.invalidateQueries({ queryKey: tableKeys.history(input.table, input.id) });
    },
  });
}
