import { i18n } from '../../../lib/i18n-instance';

/** Query keys of the generic screens; answers carry labels, so the language is part of them. */
export const tableKeys = {
  all: ['tables'] as const,
  definition: (table: string) => ['tables', 'definition', table, i18n.language] as const,
  lists: (entity: string) => ['tables', 'list', entity] as const,
  list: (entity: string, params: unknown) => ['tables', 'list', entity, i18n.language, params] as const,
  record: (table: string, id: string | number) => ['tables', 'record', table, String(id), i18n.language] as const,
  history: (table: string, id: string | number) => ['tables', 'history', table, String(id)] as const,
  views: (table: string) => ['tables', 'views', table] as const,
};
