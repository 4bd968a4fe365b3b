import { api } from '../../../lib/api-client';
import type { Ticket } from '../model/board';

/** What a new ticket is created from (deadlines left out follow the board's default values). */
export interface NewTicket {
  ticket_name: string;
  ticket_description?: string;
  pos_id: number;
  priority_id: number;
  board_id: number;
  columnx_id: number;
  user_id?: number | null;
}

/** POST /tickets: creates a ticket with the rules of every ticket write. */
export async function createTicket(ticket: NewTicket): Promise<Ticket> {
  const answer = await api.post<{ data: Ticket }>('/tickets', ticket);
  return answer.data;
}
