import { i18n } from '../../../lib/i18n-instance';

/** Query keys of the user and team administration; answers carry labels, so the language is part of them. */
export const userKeys = {
  all: ['users'] as const,
  lists: () => ['users', 'list'] as const,
  list: (params: unknown) => ['users', 'list', i18n.language, params] as const,
  detail: (id: string | number) => ['users', 'detail', String(id), i18n.language] as const,
  definition: (entity: string) => ['users', 'definition', entity, i18n.language] as const,
  lookup: (entity: string) => ['users', 'lookup', entity, i18n.language] as const,
  labels: (table: string, ids: readonly (string | number)[]) => ['users', 'labels', table, i18n.language, ids.map(String)] as const,
  teams: () => ['users', 'teams'] as const,
  teamList: (params: unknown) => ['users', 'teams', 'list', params] as const,
  team: (id: string | number) => ['users', 'teams', 'detail', String(id)] as const,
  companyTeams: (companyId: number | null) => ['users', 'teams', 'company', companyId] as const,
};
