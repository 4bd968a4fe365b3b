import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { tableKeys } from './keys';

export interface CreateRecordInput {
  table: string;
  data: Record<string, unknown>;
}

export const createRecord = ({ table, data }: CreateRecordInput) => dataProvider.create(table, data);

export function useCreateRecord() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createRecord,
    onSuccess: (_answer, input) => client.invalidateQueries({ queryKey: tableKeys.lists(input.table) }),
  });
}
