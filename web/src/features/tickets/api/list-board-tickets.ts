import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Ticket } from '../model/board';
import { ticketKeys } from './keys';

/** The page size of the board's ticket reads. */
export const BOARD_PAGE_SIZE = 2000;

interface TicketListAnswer {
  data: Ticket[];
  links?: { pagination?: { current_page: number; last_page: number; total: number } };
}

/** GET /tickets?board_id=&status=opened: every open ticket of the board, page after page. */
export async function listBoardTickets(boardId: number, signal?: AbortSignal): Promise<Ticket[]> {
  const out: Ticket[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.get<TicketListAnswer>('/tickets', {
      query: { board_id: boardId, status: 'opened', per_page: BOARD_PAGE_SIZE, page, order_by: 'ticket_id', order: 'asc' },
      signal,
    });
    out.push(...(answer.data ?? []));
    const last = answer.links?.pagination?.last_page ?? 1;
    if (page >= last || (answer.data ?? []).length === 0) return out;
  }
}

export function useBoardTickets(boardId: number) {
  return useQuery({
    queryKey: ticketKeys.boardTickets(boardId),
    queryFn: ({ signal }) => listBoardTickets(boardId, signal),
    enabled: boardId > 0,
    // The live stream keeps it current.
    staleTime: Infinity,
  });
}
