/**
 * Where each dashboard figure leads: the list it counts, filtered to exactly
 * its rows, in the list screens' own URL form (lib/list-state: `f` holds the
 * conditions), so the figure and the list agree and the link can be bookmarked.
 */
import type { FilterCondition } from '../../../lib/data-provider';
import { defaultListState, encodeListState, type ListState } from '../../../lib/list-state';
import type { Light, TicketStatus } from './types';

/** The URL of list `path` showing `table` with `filters` (and an optional sort). */
export function listUrl(path: string, table: string, filters: FilterCondition[], sort?: ListState['sort']): string {
  const state: ListState = { ...defaultListState(table), filters, sort: sort ?? null };
  const query = encodeListState(state, table).toString();
  return query ? `${path}?${query}` : path;
}

/** The deadline list limited to the active deadlines of one light's window. */
export function deadlineLink(window: [string, string]): string {
  return listUrl('/app/deadline-list', 'contractaction', [
    { field: 'contractaction_status', op: 'eq', value: 'active' },
    { field: 'contractaction_notice_date', op: 'between', value: [window[0], window[1]] },
  ]);
}

/** The deadline list limited to the active deadlines whose notice date passed before `today` and that are not used up. */
export function overdueDeadlineLink(today: string): string {
  return listUrl('/app/deadline-list', 'contractaction', [
    { field: 'contractaction_status', op: 'eq', value: 'active' },
    { field: 'contractaction_expired', op: 'eq', value: 0 },
    { field: 'contractaction_notice_date', op: 'lt', value: today },
  ]);
}

/** The statement deadlines list narrowed to the objection deadlines of one light's window (decision 0062). */
export function statementDeadlineLink(window: [string, string]): string {
  return listUrl('/app/statement-deadlines', 'invoice', [{ field: 'invoice_objection_deadline', op: 'between', value: [window[0], window[1]] }]);
}

/** The statement deadlines list narrowed to the objection deadlines that passed before `today`. */
export function overdueStatementLink(today: string): string {
  return listUrl('/app/statement-deadlines', 'invoice', [{ field: 'invoice_objection_deadline', op: 'lt', value: today }]);
}

const OPEN: FilterCondition = { field: 'ticket_closed', op: 'eq', value: 0 };

/** The ticket list of the open tickets narrowed by `more`. */
export function ticketLink(more: FilterCondition[] = []): string {
  return listUrl('/app/table/ticket', 'ticket', [OPEN, ...more]);
}

/** The open tickets of one deadline status. */
export function ticketStatusLink(status: TicketStatus): string {
  return ticketLink([{ field: 'ticket_deadline_status', op: 'eq', value: status }]);
}

/** The tickets created in [from, to] (dates, both included). */
export function ticketsCreatedLink(from: string, to: string): string {
  return listUrl('/app/table/ticket', 'ticket', [
    { field: 'ticket_creation_time', op: 'between', value: [`${from} 00:00:00`, `${to} 23:59:59`] },
  ]);
}

/** The closed tickets (the closing time is not a field: the list shows every closed ticket). */
export function ticketsClosedLink(): string {
  return listUrl('/app/table/ticket', 'ticket', [{ field: 'ticket_closed', op: 'eq', value: 1 }]);
}

/** Every list the home's figures link to. */
export const homeLinks = {
  pos: () => '/app/table/pos',
  contracts: () => '/app/table/contract',
  rentalSpace: () => listUrl('/app/table/contract', 'contract', [], { field: 'contract_rentalspace_sum', dir: 'DESC' }),
  proposals: () => '/app/index-adjustments',
  claimed: () => listUrl('/app/table/contradictionpoint', 'contradictionpoint', [{ field: 'contradictionpoint_claim', op: 'not_null' }]),
  accepted: () =>
    listUrl('/app/table/contradictionpoint', 'contradictionpoint', [{ field: 'contradictionpoint_accepted', op: 'not_null' }]),
  realised: () => listUrl('/app/table/inspectionresult', 'inspectionresult', [{ field: 'inspectionresult_realised', op: 'eq', value: 1 }]),
};

/** The colour of a light (Mantine colour names). */
export const LIGHT_COLORS: Record<Light | '', string> = { red: 'red', yellow: 'yellow', green: 'teal', '': 'gray' };

/** The colour of a ticket deadline status. */
export const STATUS_COLORS: Record<TicketStatus, string> = { before_deadline: 'teal', critical_yellow: 'yellow', over_due_red: 'red' };
