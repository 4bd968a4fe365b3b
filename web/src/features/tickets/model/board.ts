/**
 * The pure logic of the kanban: a board's tickets grouped into its columns
 * in a stable order, the filters, optimistic moves with their rollback, and
 * how a ticket read after a live event changes what the board shows.
 */

/** A column of a board as GET /tickets/kanban/user answers it. */
export interface BoardColumn {
  columnx_id: number;
  columnx_name: string;
  rank_order: number;
  is_qualitygate: boolean;
  has_stamp: boolean;
  /** The team that becomes responsible on entering (0: none). */
  team_id: number;
}

/** A board the caller may see, with its columns. */
export interface Board {
  board_id: number;
  board_name: string;
  board_description: string;
  columns: BoardColumn[];
}

/** The deadline status the server computes on read (null for closed tickets). */
export type DeadlineStatus = 'before_deadline' | 'critical_yellow' | 'over_due_red';

/** A ticket as GET /tickets and the generic read answer it (the fields the kanban uses). */
export interface Ticket {
  ticket_id: number;
  ticket_name: string;
  ticket_description?: string | null;
  pos_id: number;
  pos_id__label?: string | null;
  priority_id: number;
  priority_id__label?: string | null;
  board_id: number;
  columnx_id: number;
  user_id: number | null;
  user_id__label?: string | null;
  team_id: number | null;
  team_id__label?: string | null;
  ticket_yellow_deadline: string;
  ticket_red_deadline: string;
  ticket_progress: number;
  ticket_closed: number | boolean;
  ticket_deadline_status: DeadlineStatus | null;
  ticket_created_by: number | null;
  ticket_creation_time: string;
  /** The order within the column (decision 0027); older answers may lack it. */
  ticket_rank?: number;
  row_version: number;
}

/** A priority with its order, smiley and colour. */
export interface Priority {
  priority_id: number;
  priority_name: string;
  priority_order: number;
  priority_smiley: string;
  priority_color: string;
}

/** The badge colour of a deadline status. */
export function deadlineColor(status: DeadlineStatus | null | undefined): 'green' | 'yellow' | 'red' | 'gray' {
  switch (status) {
    case 'before_deadline':
      return 'green';
    case 'critical_yellow':
      return 'yellow';
    case 'over_due_red':
      return 'red';
    default:
      return 'gray';
  }
}

/** The columns of a board in rank order (ties by id, so the order is stable). */
export function orderedColumns(columns: readonly BoardColumn[]): BoardColumn[] {
  return [...columns].sort((a, b) => a.rank_order - b.rank_order || a.columnx_id - b.columnx_id);
}

/**
 * The order of cards in a column: the server's rank (decision 0027), then
 * the ticket number.
 */
export function compareTickets(a: Ticket, b: Ticket): number {
  return (a.ticket_rank ?? 0) - (b.ticket_rank ?? 0) || a.ticket_id - b.ticket_id;
}

/** The kanban's filters: all combine with AND. */
export interface BoardFilters {
  /** Assigned to the caller or created by them. */
  mine: boolean;
  /** Past the red deadline. */
  late: boolean;
  /** Of this team (null: any). */
  teamId: number | null;
  /** Of this point of sale (null: any). */
  posId: number | null;
}

export const NO_FILTERS: BoardFilters = { mine: false, late: false, teamId: null, posId: null };

/** Whether ticket passes the filters for the user `me`. */
export function matchesFilters(ticket: Ticket, filters: BoardFilters, me: number | null): boolean {
  if (filters.mine && (me === null || (ticket.user_id !== me && ticket.ticket_created_by !== me))) return false;
  if (filters.late && ticket.ticket_deadline_status !== 'over_due_red') return false;
  if (filters.teamId !== null && ticket.team_id !== filters.teamId) return false;
  if (filters.posId !== null && ticket.pos_id !== filters.posId) return false;
  return true;
}

/** Whether any filter is set. */
export function hasFilters(filters: BoardFilters): boolean {
  return filters.mine || filters.late || filters.teamId !== null || filters.posId !== null;
}

/**
 * The tickets of each column (by column id), filtered and in card order;
 * tickets of a column the board does not have are left out.
 */
export function groupTickets(
  tickets: readonly Ticket[],
  columns: readonly BoardColumn[],
  filters: BoardFilters = NO_FILTERS,
  me: number | null = null,
): Map<number, Ticket[]> {
  const out = new Map<number, Ticket[]>();
  for (const c of columns) out.set(c.columnx_id, []);
  for (const t of tickets) {
    const list = out.get(t.columnx_id);
    if (list && matchesFilters(t, filters, me)) list.push(t);
  }
  for (const list of out.values()) list.sort(compareTickets);
  return out;
}

/** The choices of a filter (team, point of sale) from the loaded tickets, by label. */
export function filterChoices(tickets: readonly Ticket[], field: 'team_id' | 'pos_id'): { value: string; label: string }[] {
  const seen = new Map<number, string>();
  for (const t of tickets) {
    const id = t[field];
    if (id === null || id === undefined || seen.has(id)) continue;
    const label = t[field === 'team_id' ? 'team_id__label' : 'pos_id__label'];
    seen.set(id, label ? String(label) : `#${id}`);
  }
  return [...seen.entries()]
    .map(([id, label]) => ({ value: String(id), label }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** The distance of ranks at a column's end, as the server keeps them. */
export const RANK_GAP = 65536;

/**
 * Tickets with ticket `id` moved to column `to`, right before ticket
 * `before` of that column (null: at its end): the optimistic move. The rank
 * is a guess between the neighbours (the server's answer replaces it).
 */
export function moveTicket(tickets: readonly Ticket[], id: number, to: number, before: number | null = null): Ticket[] {
  const column = tickets.filter((t) => t.columnx_id === to && t.ticket_id !== id).sort(compareTickets);
  let rank: number;
  const at = before === null ? -1 : column.findIndex((t) => t.ticket_id === before);
  if (at < 0) {
    rank = column.length ? (column[column.length - 1].ticket_rank ?? 0) + RANK_GAP : RANK_GAP;
  } else {
    const next = column[at].ticket_rank ?? 0;
    rank = at === 0 ? next - RANK_GAP : ((column[at - 1].ticket_rank ?? 0) + next) / 2;
  }
  return tickets.map((t) => (t.ticket_id === id ? { ...t, columnx_id: to, ticket_rank: rank } : t));
}

/**
 * Where a dropped card goes, as the ticket the server places it before
 * (null: the column's end), from what it was dropped on: `shown` are the
 * cards of the target column as drawn; `over` the card it was dropped on
 * (null: the column itself). Dropped on a card of its own column below
 * itself, it goes after that card (as a list reorders); on any other card,
 * before it. Null as the answer's `same` means nothing changes.
 */
export function dropPlace(
  shown: readonly Ticket[],
  active: Ticket,
  to: number,
  over: number | null,
): { before: number | null; same: boolean } {
  const list = shown.map((t) => t.ticket_id);
  const from = list.indexOf(active.ticket_id);
  if (over === null || over === active.ticket_id) {
    if (active.columnx_id !== to) return { before: null, same: false };
    return { before: null, same: over === active.ticket_id || from === list.length - 1 };
  }
  const at = list.indexOf(over);
  if (at < 0) return { before: null, same: active.columnx_id === to && from === list.length - 1 };
  if (active.columnx_id === to && from >= 0 && from < at) {
    // Moving down its own column: after the card dropped on.
    return { before: list[at + 1] ?? null, same: false };
  }
  return { before: over, same: active.columnx_id === to && list[from + 1] === over };
}

/** Whether a ticket belongs on the board's kanban: open and of the board. */
export function belongsOn(ticket: Ticket, boardId: number): boolean {
  return ticket.board_id === boardId && !ticket.ticket_closed;
}

/**
 * Tickets with `incoming` (a ticket read from the server) taken in: replaced
 * or added when it belongs on board, removed when it no longer does (moved
 * to another board, closed). An answer older than what the board shows
 * (a lower row_version, read before a later write) is ignored, so a slow
 * read never undoes a newer state; `pending` marks a ticket whose move by
 * the caller is still under way.
 */
export function upsertTicket(tickets: readonly Ticket[], incoming: Ticket, boardId: number, pending = false): Ticket[] {
  const at = tickets.findIndex((t) => t.ticket_id === incoming.ticket_id);
  if (at >= 0 && tickets[at].row_version > incoming.row_version) return tickets as Ticket[];
  // While the caller's own move is under way, only a newer version counts:
  // the same version is the state before the move.
  if (pending && at >= 0 && tickets[at].row_version >= incoming.row_version) return tickets as Ticket[];
  if (!belongsOn(incoming, boardId)) return at >= 0 ? tickets.filter((_, i) => i !== at) : (tickets as Ticket[]);
  if (at < 0) return [...tickets, incoming];
  const out = [...tickets];
  out[at] = incoming;
  return out;
}

/**
 * Tickets with `original` put back as it was before an optimistic move
 * (whatever its version), the first step of a rollback.
 */
export function restoreTicket(tickets: readonly Ticket[], original: Ticket): Ticket[] {
  const at = tickets.findIndex((t) => t.ticket_id === original.ticket_id);
  if (at < 0) return [...tickets, original];
  const out = [...tickets];
  out[at] = original;
  return out;
}

/** Tickets without ticket `id` (deleted, or no longer visible to the caller). */
export function removeTicket(tickets: readonly Ticket[], id: number): Ticket[] {
  return tickets.some((t) => t.ticket_id === id) ? tickets.filter((t) => t.ticket_id !== id) : (tickets as Ticket[]);
}

/** The Mantine colour of a deadline badge: shades that keep the text readable (WCAG AA) in both skins. */
export const BADGE_SHADE: Record<ReturnType<typeof deadlineColor>, string> = {
  // green.9 with white text is 4.3:1; this green gives 6:1.
  green: '#1f6b30',
  yellow: 'yellow.4',
  red: 'red.9',
  gray: 'gray.6',
};

/** Columns with more cards than this are virtualized. */
export const VIRTUALIZE_FROM = 50;
