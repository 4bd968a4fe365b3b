/**
 * The team as GET /teams answers it and the team form's own rules: the
 * served definition says which group fields show (not for all customers,
 * partner teams) and which parent teams are allowed; the form adds the roles
 * and keeps team_for_all_customer out of updates.
 */
import type { AttributeDefinition, Row } from '../../../lib/table-definition';

export type TeamType = 'intern' | 'extern_client' | 'extern_partner' | 'friendtzieze';

/** One team of GET /teams. */
export interface TeamRow {
  team_id: number;
  team_name: string;
  team_type: TeamType;
  parent_id: number | null;
  team_for_all_customer: number;
  team_description: string | null;
}

/** A member of a team with the membership's validity. */
export interface TeamMember {
  user_id: number;
  user_firstname: string;
  user_lastname: string;
  valid_from: string | null;
  valid_to: string | null;
}

/** GET /teams/{id}. */
export interface Team extends TeamRow {
  customergroup_id: number[];
  partnergroup_id: number[];
  company_id: number[];
  partnercompany_id: number[];
  users: TeamMember[];
  roles: { role_id: number; role_name: string }[];
  row_version?: number;
}

/** The roles of a team: not a field of the served definition, a relation PUT /teams replaces. */
export function rolesAttribute(label: string): AttributeDefinition {
  return {
    attribute: 'role_id',
    attribute_i18n: label,
    attribute_regexp: '',
    attribute_regexp_failure_message: '',
    attribute_datatype_hint: 'list',
    attribute_datatype_len: 0,
    type: 'id',
    required: false,
    multiple: true,
    ref: { table: 'role', key: 'role_id', label: ['role_name'] },
    rules: [],
  };
}

/** The team's attributes for the form: the served ones and the roles (before the description). */
export function teamAttributes(attrs: readonly AttributeDefinition[], rolesLabel: string): AttributeDefinition[] {
  const out = attrs.filter((a) => a.attribute !== 'role_id');
  const at = out.findIndex((a) => a.attribute === 'team_description');
  out.splice(at < 0 ? out.length : at, 0, rolesAttribute(rolesLabel));
  return out;
}

/** Form values of a stored team (role ids and labels from its roles). */
export function teamFormRow(team: Team): Row {
  const { users: _members, roles, ...rest } = team;
  return { ...rest, role_id: roles.map((r) => r.role_id), role_id__label: roles.map((r) => r.role_name) };
}

/**
 * The body of POST or PUT /teams. On update team_id names the team and
 * team_for_all_customer is left out (it cannot change); hidden group lists
 * are sent empty so the server drops their links.
 */
export function teamPayload(payload: Record<string, unknown>, id: number | null, rowVersion?: number | null): Record<string, unknown> {
  const out: Record<string, unknown> = { ...payload };
  for (const list of ['customergroup_id', 'partnergroup_id', 'company_id', 'partnercompany_id', 'role_id']) {
    if (!Array.isArray(out[list])) out[list] = [];
  }
  if (out.parent_id === undefined) out.parent_id = null;
  if (id !== null) {
    out.team_id = id;
    delete out.team_for_all_customer;
    if (rowVersion !== undefined && rowVersion !== null) out.row_version = rowVersion;
  }
  return out;
}

/** True when the membership's end is before its start (both YYYY-MM-DD). */
export function endsBeforeStart(from: string | null | undefined, to: string | null | undefined): boolean {
  return Boolean(from && to && to < from);
}
