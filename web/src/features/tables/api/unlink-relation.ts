import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import type { LinkInput } from './link-relation';
import { tableKeys } from './keys';

/** Ends a link (the server ends or removes the link row). */
export const unlinkRelation = ({ api, ownerId, data }: LinkInput) => dataProvider.unlink(api, ownerId, data);

export function useUnlinkRelation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: unlinkRelation,
    onSuccess: (_answer, input) => client.invalidateQueries({ queryKey: tableKeys.lists(input.api) }),
  });
}
