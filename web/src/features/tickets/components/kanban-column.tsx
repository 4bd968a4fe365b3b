import { ActionIcon, Badge, Box, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconRosetteDiscountCheck, IconRubberStamp } from '@tabler/icons-react';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type BoardColumn, type Priority, type Ticket, VIRTUALIZE_FROM } from '../model/board';
import { TicketCard } from './ticket-card';

export interface KanbanColumnProps {
  column: BoardColumn;
  tickets: Ticket[];
  priorities: ReadonlyMap<number, Priority>;
  /** A card is being carried over this column. */
  targeted: boolean;
  canCreate: boolean;
  /** The user may move tickets (update on ticket): without it the cards only open. */
  canMove: boolean;
  onCreate: (column: BoardColumn) => void;
  onOpen: (ticket: Ticket) => void;
}

/** What dnd-kit carries for a card and for a column (useSortable, useDroppable). */
export type DragData = { type: 'card'; ticket: Ticket; column: number } | { type: 'column'; column: number };

/** The droppable id of a column (cards use their ticket id). */
export const columnDropId = (id: number) => `column-${id}`;

/** A card that dnd-kit moves: the pointer after 6 px, the keyboard with Space and the arrows. */
const SortableCard = memo(function SortableCard({
  ticket,
  column,
  priority,
  onOpen,
  canMove,
}: {
  ticket: Ticket;
  column: number;
  priority: Priority | undefined;
  onOpen: (ticket: Ticket) => void;
  canMove: boolean;
}) {
  const data = useMemo<DragData>(() => ({ type: 'card', ticket, column }), [ticket, column]);
  const { setNodeRef, attributes, listeners, transform, transition, isDragging } = useSortable({ id: ticket.ticket_id, data, disabled: !canMove });
  return (
    <TicketCard
      ticket={ticket}
      priority={priority}
      lifted={isDragging}
      onOpen={onOpen}
      nodeRef={setNodeRef}
      dragProps={canMove ? { ...attributes, ...listeners } : undefined}
      dragStyle={transform ? { transform: CSS.Translate.toString(transform), transition } : undefined}
    />
  );
});

/** The estimated height of a card with its gap, before it is measured. */
const CARD_ESTIMATE = 104;

/** A list of cards drawing only those in view: for columns with many cards. */
function VirtualCards(props: Omit<KanbanColumnProps, 'targeted' | 'canCreate' | 'onCreate'>) {
  const { column, tickets, priorities, onOpen, canMove } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_ESTIMATE,
    overscan: 6,
    getItemKey: (i) => tickets[i].ticket_id,
  });
  return (
    <Box ref={scroller} style={{ overflowY: 'auto', flex: 1, minHeight: 0 }} data-virtualized="true">
      <Box style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((item) => {
          const ticket = tickets[item.index];
          return (
            <Box
              key={item.key}
              data-index={item.index}
              ref={v.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)`, paddingBottom: 8, paddingInline: 2 }}
            >
              <SortableCard ticket={ticket} column={column.columnx_id} priority={priorities.get(ticket.priority_id)} onOpen={onOpen} canMove={canMove} />
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

/**
 * One column of the board: its name, card count and rules (quality gate,
 * stamp), a "+" to create a ticket in it, and its cards; a column with more
 * than VIRTUALIZE_FROM cards draws only those in view.
 */
export const KanbanColumn = memo(function KanbanColumn(props: KanbanColumnProps) {
  const { column, tickets, priorities, targeted, canCreate, canMove, onCreate, onOpen } = props;
  const { t } = useTranslation();
  const headingId = `kanban-column-${column.columnx_id}`;
  const data = useMemo<DragData>(() => ({ type: 'column', column: column.columnx_id }), [column.columnx_id]);
  const { setNodeRef } = useDroppable({ id: columnDropId(column.columnx_id), data });
  const ids = useMemo(() => tickets.map((x) => x.ticket_id), [tickets]);
  return (
    <Paper
      ref={setNodeRef}
      component="section"
      aria-labelledby={headingId}
      data-column-id={column.columnx_id}
      data-targeted={targeted || undefined}
      withBorder
      radius="md"
      p="xs"
      bg={targeted ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default-hover)'}
      style={{
        width: 300,
        flex: '0 0 300px',
        display: 'flex',
        flexDirection: 'column',
        maxHeight: '100%',
        minHeight: 0,
        outline: targeted ? '2px dashed var(--mantine-primary-color-filled)' : undefined,
      }}
    >
      <Group justify="space-between" wrap="nowrap" mb="xs" gap={4}>
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <Text id={headingId} fw={700} size="sm" truncate component="h2" m={0}>
            {column.columnx_name}
          </Text>
          <Badge size="sm" variant="light" color="gray" aria-label={t('kanban.card_count', { count: tickets.length })}>
            {tickets.length}
          </Badge>
          {column.is_qualitygate && (
            <Tooltip label={t('kanban.quality_gate')}>
              <IconRosetteDiscountCheck size={16} aria-label={t('kanban.quality_gate')} role="img" />
            </Tooltip>
          )}
          {column.has_stamp && (
            <Tooltip label={t('kanban.stamp')}>
              <IconRubberStamp size={16} aria-label={t('kanban.stamp')} role="img" />
            </Tooltip>
          )}
        </Group>
        {canCreate && (
          <ActionIcon variant="subtle" size="sm" aria-label={t('kanban.new_in', { column: column.columnx_name })} onClick={() => onCreate(column)}>
            <IconPlus size={16} />
          </ActionIcon>
        )}
      </Group>
      <SortableContext id={columnDropId(column.columnx_id)} items={ids} strategy={verticalListSortingStrategy}>
      {tickets.length > VIRTUALIZE_FROM ? (
        <VirtualCards column={column} tickets={tickets} priorities={priorities} onOpen={onOpen} canMove={canMove} />
      ) : (
        <Stack gap={8} style={{ overflowY: 'auto', flex: 1, minHeight: 40, padding: 2 }}>
          {tickets.map((ticket) => (
            <SortableCard key={ticket.ticket_id} ticket={ticket} column={column.columnx_id} priority={priorities.get(ticket.priority_id)} onOpen={onOpen} canMove={canMove} />
          ))}
          {tickets.length === 0 && (
            <Text size="xs" c="dimmed" ta="center" py="md">
              {t('kanban.empty_column')}
            </Text>
          )}
        </Stack>
      )}
      </SortableContext>
    </Paper>
  );
});
