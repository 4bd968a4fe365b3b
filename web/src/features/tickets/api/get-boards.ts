import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Board } from '../model/board';
import { ticketKeys } from './keys';

/** GET /tickets/kanban/user: the boards the caller may see, each with its columns in rank order. */
export async function getBoards(signal?: AbortSignal): Promise<Board[]> {
  const answer = await api.get<{ data: Board[] }>('/tickets/kanban/user', { signal });
  return answer.data ?? [];
}

export function useBoards() {
  return useQuery({ queryKey: ticketKeys.boards(), queryFn: ({ signal }) => getBoards(signal), staleTime: 60_000 });
}
