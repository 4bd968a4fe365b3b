import {
  type Announcements,
  type CollisionDetection,
  closestCorners,
  DndContext,
  type DragEndEvent,
  type DragMoveEvent,
  type DragOverEvent,
  DragOverlay,
  type DragStartEvent,
  type DroppableContainer,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { Alert, Badge, Box, Group, Loader, Select, Stack, Switch, Text, Title, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useAbility } from '../../../lib/ability-context';
import { useSession } from '../../../lib/use-session';
import { useBoards } from '../api/get-boards';
import { useBoardTickets } from '../api/list-board-tickets';
import { usePriorities } from '../api/list-priorities';
import {
  type BoardColumn,
  type BoardFilters,
  dropPlace,
  filterChoices,
  groupTickets,
  NO_FILTERS,
  orderedColumns,
  type Priority,
  type Ticket,
} from '../model/board';
import { keyboardOver, keyboardSpot, type Spot } from '../model/keyboard-moves';
import { CreateTicketModal } from './create-ticket-modal';
import { type DragData, KanbanColumn } from './kanban-column';
import { TicketCard } from './ticket-card';
import { TicketDrawer } from './ticket-drawer';
import { useLiveBoard } from './use-live-board';
import { useMoveTicket } from './use-move-ticket';

const ARROWS = ['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown'];

/** The board's droppables with their measured rects, for the keyboard moves. */
function spotsOf(containers: Iterable<DroppableContainer>, rects: ReadonlyMap<string | number, { left: number; top: number; width: number; height: number }>): Spot[] {
  const out: Spot[] = [];
  for (const c of containers) {
    const d = c.data.current as DragData | undefined;
    const rect = rects.get(c.id);
    if (!d || !rect || c.disabled) continue;
    out.push({ id: c.id, column: d.column, card: d.type === 'card', rect });
  }
  return out;
}

/**
 * The keyboard sensor's arrows (keyboard-moves.ts): ArrowRight and ArrowLeft
 * jump to the next column, ArrowUp and ArrowDown move by one card in it.
 */
const keyboardCoordinates: KeyboardCoordinateGetter = (event, { active, context }) => {
  if (!ARROWS.includes(event.code)) return undefined;
  event.preventDefault();
  const { collisionRect, droppableRects, droppableContainers } = context;
  if (!collisionRect) return undefined;
  return keyboardSpot(event.code, spotsOf(droppableContainers.getEnabled(), droppableRects), active, collisionRect);
};

/**
 * The kanban of a board (/app/table/board/{id}/kanban and /kanbanview): its
 * columns in rank order with their open tickets as cards in their rank,
 * moved between and within columns by drag and drop or the keyboard
 * (@dnd-kit: pointer after 6 px; Space, arrows, Space, Escape), filtered (mine, late, team, point of sale), kept live
 * by GET /events; a card opens the ticket drawer, a column's "+" creates a
 * ticket in it.
 */
export default function KanbanPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const boardId = Number(id);
  const navigate = useNavigate();
  const ability = useAbility();
  const { user } = useSession();
  const me = user?.user_id ?? null;

  const boards = useBoards();
  const tickets = useBoardTickets(boardId);
  const priorities = usePriorities();
  const { move, pending } = useMoveTicket(boardId);
  const live = useLiveBoard(boardId, pending);

  const [filters, setFilters] = useState<BoardFilters>(NO_FILTERS);
  const [openId, setOpenId] = useState<number | null>(null);
  // ?ticket=<id> opens that ticket's drawer (the header search links there).
  const [params, setParams] = useSearchParams();
  const linked = Number(params.get('ticket')) || null;
  useEffect(() => {
    if (linked) setOpenId(linked);
  }, [linked]);
  const closeDrawer = useCallback(() => {
    setOpenId(null);
    if (!linked) return;
    setParams(
      (p) => {
        p.delete('ticket');
        return p;
      },
      { replace: true },
    );
  }, [linked, setParams]);
  const [createIn, setCreateIn] = useState<BoardColumn | null>(null);
  const [active, setActive] = useState<Ticket | null>(null);
  const [overColumn, setOverColumn] = useState<number | null>(null);
  const [refocus, setRefocus] = useState<number | null>(null);
  // Whether the carried card has moved since the pick-up (for the announcements).
  const travelled = useRef(false);

  const board = boards.data?.find((b) => b.board_id === boardId);
  const columns = useMemo(() => orderedColumns(board?.columns ?? []), [board]);
  const columnName = useCallback((cid: number | null) => columns.find((c) => c.columnx_id === cid)?.columnx_name ?? '', [columns]);
  const priorityMap = useMemo(() => new Map<number, Priority>((priorities.data ?? []).map((p) => [p.priority_id, p])), [priorities.data]);
  const all = tickets.data;
  const grouped = useMemo(() => groupTickets(all ?? [], columns, filters, me), [all, columns, filters, me]);
  const teamChoices = useMemo(() => filterChoices(all ?? [], 'team_id'), [all]);
  const posChoices = useMemo(() => filterChoices(all ?? [], 'pos_id'), [all]);

  const sensors = useSensors(
    // A press becomes a drag after 6 px, so a click stays a click and opens the drawer.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    // Space picks up and drops (Enter opens the drawer), the arrows choose the place (column to
    // column, card by card), Escape cancels.
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates,
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space'] },
    }),
  );
  // Under the pointer: a card before its column, else the nearest. The keyboard (no pointer):
  // the place under the carried card's middle in the column it was moved to (keyboard-moves.ts).
  const collisions = useCallback<CollisionDetection>((args) => {
    if (!args.pointerCoordinates) {
      const a = args.active.data.current as DragData | undefined;
      if (a?.type !== 'card') return [];
      const id = keyboardOver(spotsOf(args.droppableContainers, args.droppableRects), args.active.id, a.column, args.collisionRect);
      return id === undefined ? [] : [{ id }];
    }
    const within = pointerWithin(args);
    if (within.length) {
      const cards = within.filter((c) => (args.droppableContainers.find((d) => d.id === c.id)?.data.current as DragData | undefined)?.type === 'card');
      return cards.length ? cards : within;
    }
    return closestCorners(args);
  }, []);
  const dataOf = (x: { data: { current?: unknown } } | null | undefined) => (x?.data.current ?? null) as DragData | null;

  const onDragStart = useCallback((e: DragStartEvent) => {
    travelled.current = false;
    const d = dataOf(e.active);
    if (d?.type !== 'card') return;
    setActive(d.ticket);
    setOverColumn(d.column);
  }, []);
  const onDragMove = useCallback((e: DragMoveEvent) => {
    if (e.delta.x || e.delta.y) travelled.current = true;
  }, []);
  const onDragOver = useCallback((e: DragOverEvent) => setOverColumn(dataOf(e.over)?.column ?? null), []);
  const onDragCancel = useCallback(() => {
    setActive(null);
    setOverColumn(null);
  }, []);
  const onDragEnd = useCallback(
    (e: DragEndEvent) => {
      setActive(null);
      setOverColumn(null);
      const a = dataOf(e.active);
      const o = dataOf(e.over);
      if (a?.type !== 'card' || !o) return;
      const ticket = a.ticket;
      const place = dropPlace(grouped.get(o.column) ?? [], ticket, o.column, o.type === 'card' ? o.ticket.ticket_id : null);
      if (place.same) return;
      setRefocus(ticket.ticket_id);
      void move(ticket, o.column, place.before);
    },
    [grouped, move],
  );

  // dnd-kit's live region: what the keyboard and the pointer do, in the user's language.
  const announcements = useMemo<Announcements>(
    () => ({
      onDragStart: ({ active: a }) => {
        const d = dataOf(a);
        return d?.type === 'card' ? t('kanban.picked', { ticket: d.ticket.ticket_name, column: columnName(d.column) }) : undefined;
      },
      // The place a drop there takes (dropPlace), as the drop will make it.
      // Nothing until the card moved, so that "picked up" is heard (the first collisions
      // right after the pick-up are measured with the board half measured).
      onDragOver: ({ active: a, over }) => {
        const d = dataOf(a);
        const o = dataOf(over);
        if (d?.type !== 'card' || !o) return undefined;
        const shown = grouped.get(o.column) ?? [];
        const place = dropPlace(shown, d.ticket, o.column, o.type === 'card' ? o.ticket.ticket_id : null);
        const column = columnName(o.column);
        if (!travelled.current) return undefined;
        if (place.same) return t('kanban.over_same', { column });
        const before = place.before === null ? undefined : shown.find((x) => x.ticket_id === place.before);
        return before ? t('kanban.over_card', { ticket: before.ticket_name, column }) : t('kanban.over_end', { column });
      },
      onDragEnd: ({ active: a, over }) => {
        const d = dataOf(a);
        const o = dataOf(over);
        if (d?.type !== 'card') return undefined;
        return o ? t('kanban.moved', { ticket: d.ticket.ticket_name, column: columnName(o.column) }) : t('kanban.dropped_same', { ticket: d.ticket.ticket_name });
      },
      onDragCancel: ({ active: a }) => {
        const d = dataOf(a);
        return d?.type === 'card' ? t('kanban.cancelled', { ticket: d.ticket.ticket_name }) : undefined;
      },
    }),
    [columnName, grouped, t],
  );

  // A card moved with the keyboard keeps the focus in its new place.
  useEffect(() => {
    if (refocus === null) return;
    const el = document.querySelector<HTMLElement>(`[data-ticket-id="${refocus}"]`);
    if (el) {
      if (document.activeElement === document.body || document.activeElement?.closest('[data-ticket-id]')) el.focus();
      setRefocus(null);
    }
  });

  const onOpen = useCallback((ticket: Ticket) => setOpenId(ticket.ticket_id), []);

  // A board the caller does not see (decision 0027) is not found, whether
  // the board list or the server's 404 for its tickets says so first.
  const ticketsNotFound = tickets.error instanceof ApiError && tickets.error.status === 404;
  if (!(boardId > 0) || (boards.data && !board) || ticketsNotFound) return <Navigate to="/app/error-404" replace />;
  if (boards.isError || tickets.isError) {
    return (
      <Alert color="red" title={t('kanban.load_failed')}>
        {t('general.error')}
      </Alert>
    );
  }
  const canCreate = ability.can('create', 'ticket');
  // Moving is an update of the ticket (PUT /tickets/update): a user who may
  // only read the board gets cards that open, not cards that drag.
  const canMove = ability.can('update', 'ticket');
  const visible = [...grouped.values()].reduce((n, l) => n + l.length, 0);

  return (
    <Stack gap="sm" style={{ height: 'calc(100dvh - 120px)', minHeight: 420 }}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Title order={1} size="h3">
            {board?.board_name ?? t('kanban.title')}
          </Title>
          {boards.data && boards.data.length > 1 && (
            <Select
              aria-label={t('kanban.switch_board')}
              size="xs"
              w={220}
              allowDeselect={false}
              data={boards.data.map((b) => ({ value: String(b.board_id), label: b.board_name }))}
              value={String(boardId)}
              onChange={(v) => v && navigate(`/app/table/board/${v}/kanban`)}
            />
          )}
          <Badge
            variant="dot"
            color={live ? 'teal' : 'gray'}
            data-live={live}
          >
            {live ? t('kanban.live') : t('kanban.offline')}
          </Badge>
        </Group>
        <Group gap="sm" wrap="wrap" role="group" aria-label={t('kanban.filters')}>
          <Switch label={t('kanban.filter_mine')} checked={filters.mine} onChange={(e) => setFilters((f) => ({ ...f, mine: e.currentTarget.checked }))} />
          <Switch label={t('kanban.filter_late')} checked={filters.late} onChange={(e) => setFilters((f) => ({ ...f, late: e.currentTarget.checked }))} />
          <Select
            size="xs"
            w={180}
            label={t('kanban.filter_team')}
            placeholder={t('kanban.any')}
            clearable
            searchable
            data={teamChoices}
            value={filters.teamId === null ? null : String(filters.teamId)}
            onChange={(v) => setFilters((f) => ({ ...f, teamId: v ? Number(v) : null }))}
          />
          <Select
            size="xs"
            w={220}
            label={t('kanban.filter_pos')}
            placeholder={t('kanban.any')}
            clearable
            searchable
            data={posChoices}
            value={filters.posId === null ? null : String(filters.posId)}
            onChange={(v) => setFilters((f) => ({ ...f, posId: v ? Number(v) : null }))}
          />
        </Group>
      </Group>
      <VisuallyHidden id="kanban-drag-help">{t('kanban.drag_help')}</VisuallyHidden>
      <DndContext
        sensors={sensors}
        collisionDetection={collisions}
        onDragStart={onDragStart}
        onDragMove={onDragMove}
        onDragOver={onDragOver}
        onDragEnd={onDragEnd}
        onDragCancel={onDragCancel}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t('kanban.drag_help') } }}
        autoScroll={{ threshold: { x: 0.15, y: 0.2 } }}
      >
      {!all || !board ? (
        <Group justify="center" py="xl">
          <Loader aria-label={t('kanban.loading')} />
        </Group>
      ) : (
        <>
          <Text size="xs" c="dimmed" data-shown={visible}>
            {t('kanban.shown', { count: visible, total: all.length })}
          </Text>
          <Box
            style={{ display: 'flex', gap: 12, overflowX: 'auto', flex: 1, minHeight: 0, alignItems: 'stretch', paddingBottom: 8 }}
            data-testid="kanban-board"
            data-kanban-board
          >
            {columns.map((column) => (
              <KanbanColumn
                key={column.columnx_id}
                column={column}
                tickets={grouped.get(column.columnx_id) ?? []}
                priorities={priorityMap}
                targeted={active !== null && overColumn === column.columnx_id}
                canCreate={canCreate}
                canMove={canMove}
                onCreate={setCreateIn}
                onOpen={onOpen}
              />
            ))}
          </Box>
        </>
      )}
      <DragOverlay dropAnimation={null}>
        {active && (
          <Box style={{ transform: 'rotate(2deg)', cursor: 'grabbing' }}>
            <TicketCard ticket={active} priority={priorityMap.get(active.priority_id)} overlay />
          </Box>
        )}
      </DragOverlay>
      </DndContext>
      <TicketDrawer
        ticketId={openId}
        boardId={boardId}
        priorities={priorities.data ?? []}
        onClose={closeDrawer}
      />
      {board && (
        <CreateTicketModal
          board={board}
          column={createIn}
          priorities={priorities.data ?? []}
          onClose={() => setCreateIn(null)}
        />
      )}
    </Stack>
  );
}
