/**
 * The state of the user and team lists in the query string, so a view can be
 * bookmarked and survives the creation modal: ?q=&page=&size=&dir= (and
 * &company= for teams); defaults are left out.
 */
import type { TeamListParams } from '../api/list-teams';
import type { UserListParams } from '../api/list-users';

/** Page sizes of the user list. */
export const USER_PAGE_SIZES = [25, 50, 100, 500];
const DEFAULT_USER_PAGE_SIZE = 50;

function pageOf(query: URLSearchParams): number {
  const page = Number(query.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The list's state from the query string (?q=&page=&size=&dir=), so a view can be bookmarked. */
export function decodeUserList(query: URLSearchParams): UserListParams {
  const size = Number(query.get('size'));
  return {
    page: pageOf(query),
    perPage: USER_PAGE_SIZES.includes(size) ? size : DEFAULT_USER_PAGE_SIZE,
    keyword: query.get('q') ?? '',
    order: query.get('dir') === 'desc' ? 'desc' : 'asc',
  };
}

/** The query string of a list state, defaults left out. */
export function encodeUserList(p: UserListParams): URLSearchParams {
  const out = new URLSearchParams();
  if (p.keyword) out.set('q', p.keyword);
  if (p.page > 1) out.set('page', String(p.page));
  if (p.perPage !== DEFAULT_USER_PAGE_SIZE) out.set('size', String(p.perPage));
  if (p.order === 'desc') out.set('dir', 'desc');
  return out;
}

/** The team list's state (30 per page, fixed). */
export function decodeTeamList(query: URLSearchParams): TeamListParams {
  const company = Number(query.get('company'));
  return {
    page: pageOf(query),
    keyword: query.get('q') ?? '',
    order: query.get('dir') === 'desc' ? 'desc' : 'asc',
    companyId: Number.isInteger(company) && company > 0 ? company : null,
  };
}

export function encodeTeamList(p: TeamListParams): URLSearchParams {
  const out = new URLSearchParams();
  if (p.keyword) out.set('q', p.keyword);
  if (p.page > 1) out.set('page', String(p.page));
  if (p.order === 'desc') out.set('dir', 'desc');
  if (p.companyId) out.set('company', String(p.companyId));
  return out;
}
