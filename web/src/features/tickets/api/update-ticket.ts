import { api } from '../../../lib/api-client';
import type { Ticket } from '../model/board';

/** The fields of a ticket the kanban changes. */
export interface TicketChanges {
  ticket_name?: string;
  ticket_description?: string | null;
  priority_id?: number;
  columnx_id?: number;
  user_id?: number | null;
  team_id?: number | null;
  ticket_yellow_deadline?: string;
  ticket_red_deadline?: string;
  ticket_progress?: number;
  ticket_closed?: number;
  /** Place the ticket right before this ticket of its (new) column; null: at the end (decision 0027). */
  before_ticket_id?: number | null;
}

/**
 * PUT /tickets/update: the changed fields of a ticket with the row_version
 * read; 409 when someone changed it meanwhile, 422 when a column rule
 * refuses (a quality gate names the missing document types).
 */
export async function updateTicket(id: number, rowVersion: number, changes: TicketChanges): Promise<Ticket> {
  const answer = await api.put<{ data: Ticket }>('/tickets/update', { ticket_id: id, row_version: rowVersion, ...changes });
  return answer.data;
}
