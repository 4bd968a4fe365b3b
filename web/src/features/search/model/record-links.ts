/**
 * What the header search finds besides screens (decision 0069): the
 * entities it looks through, in the order of their groups, which of them
 * a user may search (the list right, as the lists need it), and where a
 * hit opens.
 */
import type { AppAbility } from '../../../lib/ability';
import { defaultListState, encodeListState } from '../../../lib/list-state';

/** The entities the record search looks through, in the order of their groups. */
export const RECORD_ENTITIES = ['pos', 'contract', 'invoice', 'ticket'] as const;
export type RecordEntity = (typeof RECORD_ENTITIES)[number];

/** The entities `ability` lets the user list: the only ones searched. */
export function searchableEntities(ability: AppAbility): RecordEntity[] {
  return RECORD_ENTITIES.filter((entity) => ability.can('list', entity));
}

/**
 * The page of a hit: the record's view page (an invoice's is the invoice
 * page, routes.tsx); a ticket opens in the drawer on its board's kanban
 * when the user may read the board, else on its record page.
 */
export function recordLink(entity: RecordEntity, hit: { id: number; board_id?: number }, ability: AppAbility): string {
  if (entity === 'ticket' && hit.board_id && ability.can('read', 'board')) {
    return `/app/table/board/${hit.board_id}/kanban?ticket=${hit.id}`;
  }
  return `/app/table/${entity}/view/${hit.id}`;
}

/** The entity's list searched for `q`, for "all matches". */
export function listLink(entity: RecordEntity, q: string): string {
  const query = encodeListState({ ...defaultListState(entity), search: q.trim() }, entity).toString();
  return query ? `/app/table/${entity}?${query}` : `/app/table/${entity}`;
}
