/**
 * The rules of the user form that the served definition cannot say alone:
 * which roles and teams a user type is offered, what an external
 * administrator may not change, how GET /users/{id} becomes form values and
 * which fields PUT leaves out. Visibility itself (director, functions,
 * firmengroup_type, partner and customer fields, holiday representative)
 * comes from the definition's show_when, evaluated by lib/validation.
 */
import type { CurrentUser } from '../../../lib/session';
import type { AttributeDefinition, Cond, Row } from '../../../lib/table-definition';
import { type FormValues, isVisible } from '../../../lib/validation';
import type { TeamRow } from './team-form';

/** The internal user type (specification: INTERN 1, EXTERN 2). */
export const USERTYPE_INTERN = 1;

export type UserFormMode = 'create' | 'update' | 'view';

/** GET /users/{id} as the server answers it. */
export interface UserAnswer {
  user_id: number;
  usertype_id: number;
  usertype?: { usertype_id: number; usertype_name: string; usertype_external: number } | null;
  company?: { company_id: number; company_name: string; customergroup_id: number; customergroup?: { customergroup_id: number; customergroup_name: string } } | null;
  contactperson?: { contactperson_id: number; contactperson_firstname: string; contactperson_lastname: string } | null;
  firmengroup_type?: number | null;
  partnergroup_id?: number | null;
  customergroup_id?: number | null;
  company_id?: number | null;
  row_version?: number;
  [field: string]: unknown;
}

/** Fields the screen groups into sections, in order; anything else goes last. */
export const USER_SECTIONS = {
  person: ['user_firstname', 'user_lastname', 'user_email', 'user_abbreviation', 'user_fix_phonenumber', 'user_fax_phonenumber', 'user_mobile'],
  access: [
    'usertype_id',
    'role_id',
    'team_id',
    'user_password',
    'user_is_director',
    'user_password_reset_required',
    'user_locked',
    'user_wrong_password_counter',
    'user_last_login_time',
    'user_last_activity_time',
  ],
  organisation: ['function_id', 'user_functions', 'firmengroup_type', 'customergroup_id', 'company_id', 'partnergroup_id', 'partnercompany_id', 'hollyday_representative'],
} as const;

export type UserSection = keyof typeof USER_SECTIONS;

/** Fields the form renders itself rather than through the generic field inputs. */
export const CUSTOM_FIELDS = new Set(['team_id']);

/**
 * Whether a user type is external: from the usertype rows' external flag,
 * else by the specification's ids; null while no type is chosen.
 */
export function isExternalType(usertypes: readonly Row[] | undefined, usertypeId: unknown): boolean | null {
  if (usertypeId === null || usertypeId === undefined || usertypeId === '') return null;
  const row = usertypes?.find((u) => String(u.usertype_id) === String(usertypeId));
  if (row && row.usertype_external !== undefined && row.usertype_external !== null) return Number(row.usertype_external) === 1;
  return Number(usertypeId) !== USERTYPE_INTERN;
}

/** The abbreviation derived on create: first letters of first and last name, upper case. */
export function initials(first: unknown, last: unknown): string {
  const letter = (v: unknown) => (typeof v === 'string' ? ([...v.trim()][0] ?? '') : '');
  return (letter(first) + letter(last)).toUpperCase();
}

/** What the current user imposes on users they create: external administrators keep to their own tenant. */
export interface CallerScope {
  external: boolean;
  customergroupId: number | null;
  partnergroupId: number | null;
  teamIds: number[];
}

/** The scope of the logged-in user (null when nothing is locked for them). */
export function callerScope(user: CurrentUser | null | undefined): CallerScope | null {
  if (!user || !Number(user.usertype?.usertype_external ?? 0)) return null;
  return {
    external: true,
    customergroupId: user.customergroup?.customergroup_id ?? user.company?.customergroup_id ?? null,
    partnergroupId: user.partnergroup?.partnergroup_id ?? null,
    teamIds: (user.team_id ?? []).map(Number),
  };
}

/** Values an external administrator's new user starts with (the server pins them anyway). */
export function callerPreset(scope: CallerScope | null): Row {
  if (!scope) return {};
  const out: Row = { team_id: scope.teamIds };
  if (scope.customergroupId) Object.assign(out, { firmengroup_type: 1, customergroup_id: scope.customergroupId });
  else if (scope.partnergroupId) Object.assign(out, { firmengroup_type: 0, partnergroup_id: scope.partnergroupId });
  return out;
}

export interface UserFormContext {
  mode: UserFormMode;
  /** Whether the chosen user type is external (null: none chosen yet). */
  external: boolean | null;
  caller: CallerScope | null;
}

/**
 * The served attributes adapted to the user being edited: roles narrowed to
 * the user type's (role_external), partner companies of internal users from
 * every partner group, the holiday representative set only on create, and
 * team, customer group and partner group locked for an external caller.
 */
export function userAttributes(attrs: readonly AttributeDefinition[], ctx: UserFormContext): AttributeDefinition[] {
  return attrs.map(typeFirst).map((a) => {
    switch (a.attribute) {
      case 'role_id':
        if (!a.ref || ctx.external === null) return a;
        return { ...a, ref: { ...a.ref, where: [{ target: 'role_external', value: ctx.external ? 1 : 0 }] } };
      case 'partnercompany_id':
        // An internal user's partner companies come from any partner group.
        if (!a.ref || ctx.external !== false) return a;
        return { ...a, ref: { ...a.ref, where: undefined } };
      case 'hollyday_representative':
        return ctx.mode === 'create' ? a : { ...a, read_only: true };
      case 'customergroup_id':
      case 'partnergroup_id':
      case 'team_id':
        return ctx.caller ? { ...a, read_only: true } : a;
      default:
        return a;
    }
  });
}

/** True when condition `c` looks at `field`. */
function mentions(c: Cond | undefined, field: string): boolean {
  if (!c) return false;
  return c.field === field || (c.conds ?? []).some((sub) => mentions(sub, field));
}

/**
 * A field that depends on the user type shows only once a type is chosen
 * (the served "not internal" would otherwise hold for no type at all).
 */
function typeFirst(a: AttributeDefinition): AttributeDefinition {
  if (!mentions(a.show_when, 'usertype_id')) return a;
  return { ...a, show_when: { op: 'all', conds: [{ op: 'filled', field: 'usertype_id' }, a.show_when!] } };
}

/** The attributes of one section, in the section's order. */
export function sectionAttributes(attrs: readonly AttributeDefinition[], section: UserSection): AttributeDefinition[] {
  const names: readonly string[] = USER_SECTIONS[section];
  const byName = new Map(attrs.map((a) => [a.attribute, a]));
  const out = names.flatMap((n) => (byName.has(n) && !CUSTOM_FIELDS.has(n) ? [byName.get(n)!] : []));
  if (section === 'organisation') {
    const known = new Set<string>(Object.values(USER_SECTIONS).flat());
    out.push(...attrs.filter((a) => !known.has(a.attribute) && !a.read_only && a.attribute !== 'user_id'));
  }
  return out;
}

/** The names of the fields a form shows for `values` (the definition's visibility rules). */
export function visibleUserFields(attrs: readonly AttributeDefinition[], values: FormValues, mode: UserFormMode): string[] {
  const creating = mode === 'create';
  return attrs
    .filter((a) => {
      if (a.write_only && mode === 'view') return false;
      if (creating && (a.read_only || a.derived) && a.default === undefined) return false;
      return isVisible(a, values, { creating });
    })
    .map((a) => a.attribute);
}

/**
 * The teams a user may be offered: external users only customer teams
 * (extern_client), internal users every team.
 */
export function teamChoices(teams: readonly TeamRow[], external: boolean | null): TeamRow[] {
  return external ? teams.filter((t) => t.team_type === 'extern_client') : [...teams];
}

/**
 * Form values from GET /users/{id}: the customer group from the company,
 * firmengroup_type 1 when a company is present, plus the generic read's
 * labels and login times.
 */
export function userFormRow(answer: UserAnswer, generic: Row | null): Row {
  const row: Row = { ...(generic ?? {}), ...answer };
  if (answer.company) {
    row.company_id = answer.company.company_id;
    row.customergroup_id = answer.customergroup_id ?? answer.company.customergroup_id ?? answer.company.customergroup?.customergroup_id ?? null;
    row.firmengroup_type = 1;
    row.company_id__label ??= answer.company.company_name;
    if (answer.company.customergroup?.customergroup_name) row.customergroup_id__label ??= answer.company.customergroup.customergroup_name;
  } else if (answer.partnergroup_id !== null && answer.partnergroup_id !== undefined && (answer.firmengroup_type === null || answer.firmengroup_type === undefined)) {
    row.firmengroup_type = 0;
  }
  if (answer.usertype) {
    row.usertype_id = answer.usertype.usertype_id;
    row.usertype_id__label ??= answer.usertype.usertype_name;
  }
  for (const k of ['user_last_login_time', 'user_last_activity_time'] as const) row[k] = answer[k] ?? generic?.[k] ?? null;
  return row;
}

/** The body of POST or PUT /users from the form's payload (PUT never carries the holiday representative or a password). */
export function userPayload(payload: Record<string, unknown>, mode: UserFormMode): Record<string, unknown> {
  const out = { ...payload };
  if (mode !== 'create') {
    delete out.hollyday_representative;
    delete out.user_password;
  }
  if (!Array.isArray(out.team_id)) out.team_id = [];
  return out;
}
