import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import { tableKeys } from './keys';

export interface LinkInput {
  /** The relation's API name, e.g. pos_location_rel. */
  api: string;
  /** The record whose relation it is. */
  ownerId: number | string;
  /** The other end's key and, to link, the link's attributes. */
  data: Record<string, unknown>;
}

export const linkRelation = ({ api, ownerId, data }: LinkInput) => dataProvider.link(api, ownerId, data);

export function useLinkRelation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: linkRelation,
    onSuccess: (_answer, input) => client.invalidateQueries({ queryKey: tableKeys.lists(input.api) }),
  });
}
