import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import type { LinkInput } from './link-relation';
import { tableKeys } from './keys';

/** Changes a link's attributes (the other end's key and the attributes in data). */
export const updateLink = ({ api, ownerId, data }: LinkInput) => dataProvider.updateLink(api, ownerId, data);

export function useUpdateLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateLink,
    onSuccess: (_answer, input) => client.invalidateQueries({ queryKey: tableKeys.lists(input.api) }),
  });
}
