import { useQuery } from '@tanstack/react-query';
import { dataProvider } from '../../../lib/data-provider';
import type { Priority } from '../model/board';
import { ticketKeys } from './keys';

/** The priorities (name, order, smiley, colour) through the generic list. */
export async function listPriorities(signal?: AbortSignal): Promise<Priority[]> {
  const answer = await dataProvider.list('priority', { orderBy: 'priority_order', orderDir: 'ASC', perPage: 1000 }, signal);
  return answer.data.data as unknown as Priority[];
}

export function usePriorities() {
  return useQuery({ queryKey: ticketKeys.priorities(), queryFn: ({ signal }) => listPriorities(signal), staleTime: 300_000 });
}
