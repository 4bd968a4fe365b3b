import { Alert, Badge, Box, Group, Loader, Select, Stack, Switch, Text, Title, VisuallyHidden } from '@mantine/core';
import { type KeyboardEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { useSession } from '../../../lib/use-session';
import { useBoards } from '../api/get-boards';
import { useBoardTickets } from '../api/list-board-tickets';
import { usePriorities } from '../api/list-priorities';
import {
  type BoardColumn,
  type BoardFilters,
  filterChoices,
  groupTickets,
  neighbourColumn,
  NO_FILTERS,
  orderedColumns,
  type Priority,
  type Ticket,
} from '../model/board';
import { CreateTicketModal } from './create-ticket-modal';
import { KanbanColumn } from './kanban-column';
import { TicketCard } from './ticket-card';
import { TicketDrawer } from './ticket-drawer';
import { type KeyboardDrag, usePointerDrag } from './use-board-drag';
import { useLiveBoard } from './use-live-board';
import { useMoveTicket } from './use-move-ticket';

/**
 * The kanban of a board (/app/table/board/{id}/kanban and /kanbanview): its
 * columns in rank order with their open tickets as cards, moved by drag and
 * drop or the keyboard, filtered (mine, late, team, point of sale), kept live
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
  const [createIn, setCreateIn] = useState<BoardColumn | null>(null);
  const [kbd, setKbd] = useState<KeyboardDrag | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [refocus, setRefocus] = useState<number | null>(null);

  const board = boards.data?.find((b) => b.board_id === boardId);
  const columns = useMemo(() => orderedColumns(board?.columns ?? []), [board]);
  const columnName = useCallback((cid: number) => columns.find((c) => c.columnx_id === cid)?.columnx_name ?? '', [columns]);
  const priorityMap = useMemo(() => new Map<number, Priority>((priorities.data ?? []).map((p) => [p.priority_id, p])), [priorities.data]);
  const all = tickets.data;
  const grouped = useMemo(
    () => groupTickets(all ?? [], columns, priorities.data ?? [], filters, me),
    [all, columns, priorities.data, filters, me],
  );
  const teamChoices = useMemo(() => filterChoices(all ?? [], 'team_id'), [all]);
  const posChoices = useMemo(() => filterChoices(all ?? [], 'pos_id'), [all]);

  const drop = useCallback(
    (ticket: Ticket, to: number) => {
      setAnnouncement(t('kanban.moved', { ticket: ticket.ticket_name, column: columnName(to) }));
      void move(ticket, to);
    },
    [columnName, move, t],
  );
  const { drag, onPointerDown, wasDrag } = usePointerDrag(drop);

  // A card moved with the keyboard keeps the focus in its new column.
  useEffect(() => {
    if (refocus === null) return;
    const el = document.querySelector<HTMLElement>(`[data-ticket-id="${refocus}"]`);
    if (el) {
      el.focus();
      setRefocus(null);
    }
  });

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>, ticket: Ticket) => {
      const carried = kbd?.ticket.ticket_id === ticket.ticket_id ? kbd : null;
      if (e.key === ' ' || e.key === 'Spacebar') {
        e.preventDefault();
        if (!carried) {
          setKbd({ ticket, over: ticket.columnx_id });
          setAnnouncement(t('kanban.picked', { ticket: ticket.ticket_name, column: columnName(ticket.columnx_id) }));
        } else {
          setKbd(null);
          if (carried.over !== ticket.columnx_id) {
            setRefocus(ticket.ticket_id);
            drop(ticket, carried.over);
          } else setAnnouncement(t('kanban.dropped_same', { ticket: ticket.ticket_name }));
        }
      } else if (carried && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
        e.preventDefault();
        const next = neighbourColumn(columns, carried.over, e.key === 'ArrowRight' ? 1 : -1);
        if (next !== null) {
          setKbd({ ticket, over: next });
          setAnnouncement(t('kanban.over', { column: columnName(next) }));
        }
      } else if (carried && e.key === 'Escape') {
        e.preventDefault();
        setKbd(null);
        setAnnouncement(t('kanban.cancelled', { ticket: ticket.ticket_name }));
      } else if (e.key === 'Enter' && !carried) {
        e.preventDefault();
        setOpenId(ticket.ticket_id);
      }
    },
    [columnName, columns, drop, kbd, t],
  );

  const onOpen = useCallback(
    (ticket: Ticket) => {
      if (!wasDrag()) setOpenId(ticket.ticket_id);
    },
    [wasDrag],
  );

  if (!(boardId > 0)) return <Navigate to="/app/error-404" replace />;
  if (boards.isError || tickets.isError) {
    return (
      <Alert color="red" title={t('kanban.load_failed')}>
        {t('general.error')}
      </Alert>
    );
  }
  if (boards.data && !board) return <Navigate to="/app/error-404" replace />;

  const target = drag?.over ?? kbd?.over ?? null;
  const liftedId = drag?.ticket.ticket_id ?? kbd?.ticket.ticket_id ?? null;
  const canCreate = ability.can('create', 'ticket');
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
      <VisuallyHidden aria-live="assertive" role="status">
        {announcement}
      </VisuallyHidden>
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
                targeted={target === column.columnx_id && liftedId !== null}
                liftedId={liftedId}
                canCreate={canCreate}
                onCreate={setCreateIn}
                onPointerDown={onPointerDown}
                onKeyDown={onKeyDown}
                onOpen={onOpen}
              />
            ))}
          </Box>
        </>
      )}
      {drag && (
        <Box
          aria-hidden
          style={{
            position: 'fixed',
            left: drag.x - drag.offsetX,
            top: drag.y - drag.offsetY,
            width: drag.width,
            pointerEvents: 'none',
            zIndex: 1000,
            transform: 'rotate(2deg)',
          }}
        >
          <TicketCard ticket={drag.ticket} priority={priorityMap.get(drag.ticket.priority_id)} overlay />
        </Box>
      )}
      <TicketDrawer
        ticketId={openId}
        boardId={boardId}
        priorities={priorities.data ?? []}
        onClose={() => setOpenId(null)}
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
