import { Badge, Group, Paper, Text } from '@mantine/core';
import { type CSSProperties, type HTMLAttributes, type KeyboardEvent, memo, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/dates';
import { BADGE_SHADE, deadlineColor, type Priority, type Ticket } from '../model/board';

export interface TicketCardProps {
  ticket: Ticket;
  priority: Priority | undefined;
  /** Picked up (keyboard) or under the pointer: shown faded in its place. */
  lifted?: boolean;
  /** Drawn under the pointer while dragging (no handlers). */
  overlay?: boolean;
  onOpen?: (ticket: Ticket) => void;
  /** dnd-kit's sortable: the node, its attributes and listeners, its moving style. */
  nodeRef?: Ref<HTMLDivElement>;
  dragProps?: HTMLAttributes<HTMLElement>;
  dragStyle?: CSSProperties;
}

/**
 * One ticket on the board: number and title, point of sale, who is
 * responsible, the deadline badge and the priority's smiley and colour.
 * Focusable: Enter opens it, Space picks it up (dnd-kit's keyboard sensor)
 * to move it with the arrows.
 */
export const TicketCard = memo(function TicketCard({ ticket, priority, lifted, overlay, onOpen, nodeRef, dragProps, dragStyle }: TicketCardProps) {
  const { t, i18n } = useTranslation();
  const status = ticket.ticket_deadline_status;
  const responsible = ticket.user_id__label ?? ticket.team_id__label ?? null;
  const color = priority?.priority_color ?? 'var(--mantine-color-gray-5)';
  return (
    <Paper
      ref={nodeRef}
      {...dragProps}
      withBorder
      shadow={overlay ? 'lg' : 'xs'}
      p="xs"
      radius="sm"
      tabIndex={overlay ? -1 : 0}
      role={overlay ? undefined : 'button'}
      aria-roledescription={overlay ? undefined : t('kanban.card_role')}
      aria-describedby={overlay || !dragProps ? undefined : 'kanban-drag-help'}
      data-movable={overlay ? undefined : Boolean(dragProps)}
      data-ticket-id={overlay ? undefined : ticket.ticket_id}
      onKeyDown={(e: KeyboardEvent<HTMLDivElement>) => {
        // Enter opens the ticket; Space, the arrows and Escape are dnd-kit's.
        if (e.key === 'Enter' && onOpen) {
          e.preventDefault();
          onOpen(ticket);
          return;
        }
        dragProps?.onKeyDown?.(e);
      }}
      onClick={onOpen ? () => onOpen(ticket) : undefined}
      style={{
        borderLeft: `4px solid ${color}`,
        cursor: overlay ? 'grabbing' : dragProps ? 'grab' : 'pointer',
        opacity: lifted ? 0.45 : 1,
        userSelect: 'none',
        touchAction: 'manipulation',
        outlineOffset: 2,
        ...dragStyle,
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap={4} align="flex-start">
        <Text size="sm" fw={600} lineClamp={2} style={{ wordBreak: 'break-word' }}>
          <Text span c="dimmed" size="xs">
            #{ticket.ticket_id}
          </Text>{' '}
          {ticket.ticket_name}
        </Text>
        {priority && (
          <Text span size="lg" lh={1} aria-label={t('kanban.priority_named', { name: priority.priority_name })} title={priority.priority_name} role="img">
            {priority.priority_smiley}
          </Text>
        )}
      </Group>
      <Text size="xs" c="dimmed" lineClamp={1} mt={2}>
        {ticket.pos_id__label ?? `#${ticket.pos_id}`}
      </Text>
      <Group justify="space-between" wrap="nowrap" gap={4} mt={6}>
        <Text size="xs" lineClamp={1} c={responsible ? undefined : 'dimmed'}>
          {responsible ?? t('kanban.nobody')}
        </Text>
        {status && (
          // A plain title, not a Tooltip: a floating tooltip per card costs much on a board of thousands.
          <Badge
            size="sm"
            variant="filled"
            color={BADGE_SHADE[deadlineColor(status)]}
            autoContrast
            data-deadline={status}
            title={formatDate(status === 'before_deadline' ? ticket.ticket_yellow_deadline : ticket.ticket_red_deadline, i18n.language)}
          >
            {t(`kanban.deadline.${status}`)}
          </Badge>
        )}
      </Group>
    </Paper>
  );
});
