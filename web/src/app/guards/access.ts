import { type AppAbility, canAll, type Permission } from '../../lib/ability';

/** What a guard does with a navigation. */
export type AccessDecision = 'allow' | 'login' | 'not-authorized';

/**
 * The guard rule: allowed when logged in with every permission; otherwise
 * /not-authorized for a logged-in user and /login for everybody else.
 */
export function decideAccess(loggedIn: boolean, ability: AppAbility, permissions: readonly Permission[]): AccessDecision {
  if (!loggedIn) return 'login';
  return canAll(ability, permissions) ? 'allow' : 'not-authorized';
}

/** Kinds of table routes under /app/table/:table. */
export type TableRouteKind = 'list' | 'view' | 'create' | 'kanban' | 'import' | 'popup';

/**
 * The permission a table route needs: list for the list, read for a view
 * (update when `edit=true`), create for the create form, the import views and
 * the popup form, read for the kanban screens.
 */
export function tableRoutePermission(kind: TableRouteKind, table: string, search: URLSearchParams): Permission {
  switch (kind) {
    case 'list':
      return { action: 'list', subject: table };
    case 'view':
      return { action: search.get('edit') === 'true' ? 'update' : 'read', subject: table };
    case 'create':
    case 'import':
    case 'popup':
      return { action: 'create', subject: table };
    case 'kanban':
      return { action: 'read', subject: table };
  }
}
