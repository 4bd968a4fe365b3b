import { useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';

/**
 * The options of a ticket's list field (user_id, team_id, priority_id,
 * pos_id) as the server offers them for the ticket being edited.
 */
export function useTicketOptions(field: string, data: Record<string, unknown>, search: string, enabled = true) {
  return useQuery({
    queryKey: ['tickets', 'options', field, data, search],
    queryFn: ({ signal }) => dataProvider.options('ticket', { field, data, search, perPage: 50 }, signal),
    enabled,
    staleTime: 60_000,
  });
}
