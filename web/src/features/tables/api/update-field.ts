import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { tableKeys } from './keys';

export interface UpdateFieldInput {
  table: string;
  id: string | number;
  field: string;
  value: unknown;
  rowVersion: number | null;
}

/** One cell of a lookup table (inline edit). */
export const updateField = ({ table, id, field, value, rowVersion }: UpdateFieldInput) =>
  dataProvider.updateField(table, id, field, value, rowVersion);

export function useUpdateField() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateField,
    onSuccess: (_answer, input) => client.invalidateQueries({ queryKey: tableKeys.lists(input.table) }),
  });
}
