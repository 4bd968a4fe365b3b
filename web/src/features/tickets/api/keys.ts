import { i18n } from '../../../lib/i18n-instance';

/** Query keys of the kanban; answers carry labels, so the language is part of them. */
export const ticketKeys = {
  all: ['tickets'] as const,
  boards: () => ['tickets', 'boards', i18n.language] as const,
  boardTickets: (boardId: number) => ['tickets', 'board', boardId, i18n.language] as const,
  priorities: () => ['tickets', 'priorities', i18n.language] as const,
  ticket: (id: number) => ['tickets', 'ticket', id, i18n.language] as const,
  history: (id: number) => ['tickets', 'history', id, i18n.language] as const,
};
