import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { invalidateRecord } from '../../../lib/record-keys';
import { tableKeys } from '../../tables/api/keys';

export interface PositionFieldInput {
  invoiceId: number;
  positionId: number;
  field: 'flat_rate' | 'apportionable' | 'units_customer';
  value: number | null;
  rowVersion: number | null;
}

/** One value of an invoice position through the generic field update; the invoice's page then reloads. */
export function useUpdatePosition() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ positionId, field, value, rowVersion }: PositionFieldInput) =>
      dataProvider.updateField('invoiceposition', positionId, field, value, rowVersion),
    onSuccess: async (_answer, input) => {
      await Promise.all([
        invalidateRecord(client, 'invoice', input.invoiceId),
        client.invalidateQueries({ queryKey: tableKeys.lists('invoiceposition') }),
      ]);
    },
  });
}
