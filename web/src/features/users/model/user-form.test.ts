import { describe, expect, it } from 'vitest';
import type { AttributeDefinition, TableDefinition } from '../../../lib/table-definition';
import { holds, validateRecord, type ValidationEnv } from '../../../lib/validation';
import { initialValues } from '../../../components/form/use-record-form';
import teamDefinition from './team-definition.fixture.json';
import userDefinition from './user-definition.fixture.json';
import {
  callerPreset,
  callerScope,
  initials,
  isExternalType,
  sectionAttributes,
  teamChoices,
  type UserAnswer,
  userAttributes,
  userFormRow,
  userPayload,
  visibleUserFields,
} from './user-form';
import { endsBeforeStart, type TeamRow, teamAttributes, teamFormRow, teamPayload } from './team-form';

/** The user and team definitions as the server serves them (GET /api/definitions/{user,team}). */
const USER = userDefinition as unknown as TableDefinition;
const TEAM = teamDefinition as unknown as TableDefinition;
const INTERN = 1;
const EXTERN = 2;

const env = (creating: boolean): ValidationEnv => ({
  creating,
  today: '2026-01-01',
  label: (f) => f,
  t: (key, vars) => `${key}:${vars?.field ?? vars?.attribute ?? ''}`,
});

const shown = (values: Record<string, unknown>, mode: 'create' | 'update' | 'view' = 'create', attrs = USER.attributes) =>
  visibleUserFields(attrs, values, mode);

describe('the user form shows each field for the right user type', () => {
  it('internal users: functions and partner companies, no director flag, no organisation type', () => {
    const fields = shown({ usertype_id: INTERN });
    expect(fields).toEqual(expect.arrayContaining(['function_id', 'user_functions', 'partnercompany_id', 'role_id', 'team_id', 'user_password']));
    for (const hidden of ['user_is_director', 'firmengroup_type', 'customergroup_id', 'company_id', 'partnergroup_id']) {
      expect(fields, hidden).not.toContain(hidden);
    }
  });

  it('external client users (organisation type 1): director flag, customer group and company, no functions', () => {
    const fields = shown({ usertype_id: EXTERN, firmengroup_type: 1 });
    expect(fields).toEqual(expect.arrayContaining(['user_is_director', 'firmengroup_type', 'customergroup_id', 'company_id']));
    for (const hidden of ['function_id', 'user_functions', 'partnergroup_id', 'partnercompany_id', 'hollyday_representative']) {
      expect(fields, hidden).not.toContain(hidden);
    }
  });

  it('external partner users (organisation type 0): partner group and partner companies, no company', () => {
    const fields = shown({ usertype_id: EXTERN, firmengroup_type: 0 });
    expect(fields).toEqual(expect.arrayContaining(['partnergroup_id', 'partnercompany_id']));
    expect(fields).not.toContain('company_id');
    expect(fields).not.toContain('customergroup_id');
  });

  it('nothing type-specific before a user type is chosen', () => {
    const adapted = userAttributes(USER.attributes, { mode: 'create', external: null, caller: null });
    const fields = shown({ usertype_id: null }, 'create', adapted);
    for (const hidden of ['user_is_director', 'firmengroup_type', 'function_id', 'user_functions', 'partnercompany_id', 'customergroup_id']) {
      expect(fields, hidden).not.toContain(hidden);
    }
    expect(shown({ usertype_id: EXTERN }, 'create', adapted)).toContain('user_is_director');
  });

  it('the holiday representative only for internal users with partner companies', () => {
    expect(shown({ usertype_id: INTERN, partnercompany_id: [3] })).toContain('hollyday_representative');
    expect(shown({ usertype_id: INTERN, partnercompany_id: [] })).not.toContain('hollyday_representative');
    expect(shown({ usertype_id: EXTERN, firmengroup_type: 0, partnercompany_id: [3] })).not.toContain('hollyday_representative');
  });

  it('create: password offered (optional, generated), lock state, counters, derived abbreviation and login times hidden', () => {
    const fields = shown({ usertype_id: INTERN });
    expect(fields).toContain('user_password');
    const password = USER.attributes.find((a) => a.attribute === 'user_password')!;
    expect(password.required).toBe(false);
    expect(password.generate).toBe(true);
    for (const hidden of ['user_locked', 'user_wrong_password_counter', 'user_abbreviation', 'user_last_login_time', 'user_last_activity_time', 'user_id']) {
      expect(fields, hidden).not.toContain(hidden);
    }
  });

  it('update: no password; lock state editable; login times and abbreviation read-only', () => {
    const fields = shown({ usertype_id: INTERN }, 'update');
    expect(fields).not.toContain('user_password');
    expect(fields).toEqual(expect.arrayContaining(['user_locked', 'user_last_login_time', 'user_last_activity_time', 'user_abbreviation']));
    const byName = new Map(USER.attributes.map((a) => [a.attribute, a]));
    for (const readOnly of ['user_last_login_time', 'user_last_activity_time', 'user_abbreviation', 'user_wrong_password_counter']) {
      expect(byName.get(readOnly)?.read_only, readOnly).toBe(true);
    }
  });

  it('defaults on create: director, locked and reset flags 0, no teams', () => {
    const values = initialValues(USER.attributes, 'create');
    expect(values.user_is_director).toBe(0);
    expect(values.user_password_reset_required).toBe(0);
    expect(values.team_id).toEqual([]);
  });

  it('requires the organisation and its company or partner group only where they apply', () => {
    const base = { usertype_id: EXTERN, user_firstname: 'A', user_lastname: 'B', user_email: 'a@b.test', role_id: 5 };
    expect(Object.keys(validateRecord(USER.attributes, base, env(true)))).toEqual(['firmengroup_type']);
    expect(Object.keys(validateRecord(USER.attributes, { ...base, firmengroup_type: 1 }, env(true))).sort()).toEqual(['company_id', 'customergroup_id']);
    expect(Object.keys(validateRecord(USER.attributes, { ...base, firmengroup_type: 0 }, env(true))).sort()).toEqual(['partnercompany_id', 'partnergroup_id']);
    expect(validateRecord(USER.attributes, { ...base, usertype_id: INTERN }, env(true))).toEqual({});
  });
});

describe('the user form rules the definition does not say', () => {
  it('tells external user types by their flag, else by the specification ids', () => {
    const types = [
      { usertype_id: 1, usertype_external: 0 },
      { usertype_id: 2, usertype_external: 1 },
      { usertype_id: 3, usertype_external: 0 },
    ];
    expect(isExternalType(types, 2)).toBe(true);
    expect(isExternalType(types, 3)).toBe(false);
    expect(isExternalType(undefined, 1)).toBe(false);
    expect(isExternalType(undefined, 2)).toBe(true);
    expect(isExternalType(types, null)).toBeNull();
  });

  it('offers roles by user type: external roles to external users, internal ones to internal users', () => {
    const role = (external: boolean | null) =>
      userAttributes(USER.attributes, { mode: 'create', external, caller: null }).find((a) => a.attribute === 'role_id')!.ref!.where;
    expect(role(true)).toEqual([{ target: 'role_external', value: 1 }]);
    expect(role(false)).toEqual([{ target: 'role_external', value: 0 }]);
    expect(role(null)).toBeUndefined();
  });

  it('lets internal users pick partner companies of any partner group', () => {
    const partner = (external: boolean) =>
      userAttributes(USER.attributes, { mode: 'create', external, caller: null }).find((a) => a.attribute === 'partnercompany_id')!.ref!.where;
    expect(partner(false)).toBeUndefined();
    expect(partner(true)).toEqual([{ target: 'partnergroup_id', source: 'partnergroup_id' }]);
  });

  it('sets the holiday representative only on create', () => {
    const rep = (mode: 'create' | 'update') =>
      userAttributes(USER.attributes, { mode, external: false, caller: null }).find((a) => a.attribute === 'hollyday_representative')!;
    expect(rep('create').read_only).toBeFalsy();
    expect(rep('update').read_only).toBe(true);
  });

  it('locks team, customer group and partner group for an external administrator and pre-fills them', () => {
    const caller = callerScope({
      user_id: 5,
      user_email: 'lead@demo.test',
      user_firstname: 'L',
      user_lastname: 'E',
      usertype: { usertype_id: 2, usertype_name: 'EXTERN', usertype_external: 1 },
      customergroup: { customergroup_id: 1, customergroup_name: 'Nordhandel Gruppe' },
      team_id: [6, 7],
    });
    expect(caller).toEqual({ external: true, customergroupId: 1, partnergroupId: null, teamIds: [6, 7] });
    expect(callerPreset(caller)).toEqual({ team_id: [6, 7], firmengroup_type: 1, customergroup_id: 1 });
    const attrs = userAttributes(USER.attributes, { mode: 'create', external: true, caller });
    for (const locked of ['team_id', 'customergroup_id', 'partnergroup_id']) {
      expect(attrs.find((a) => a.attribute === locked)?.read_only, locked).toBe(true);
    }
    expect(callerScope({ user_id: 1, user_email: 'a', user_firstname: 'a', user_lastname: 'b', usertype: { usertype_id: 1, usertype_name: 'INTERN', usertype_external: 0 } })).toBeNull();
  });

  it('offers external users only customer teams', () => {
    const teams: TeamRow[] = [
      { team_id: 1, team_name: 'MVM', team_type: 'intern', parent_id: null, team_for_all_customer: 1, team_description: null },
      { team_id: 6, team_name: 'MVM extern', team_type: 'extern_client', parent_id: 1, team_for_all_customer: 1, team_description: null },
      { team_id: 11, team_name: 'Partners', team_type: 'extern_partner', parent_id: null, team_for_all_customer: 1, team_description: null },
    ];
    expect(teamChoices(teams, true).map((t) => t.team_id)).toEqual([6]);
    expect(teamChoices(teams, false).map((t) => t.team_id)).toEqual([1, 6, 11]);
  });

  it('derives the abbreviation from the first letters of first and last name', () => {
    expect(initials('clara', 'Kunde')).toBe('CK');
    expect(initials(' Émile ', 'zola')).toBe('ÉZ');
    expect(initials('', null)).toBe('');
  });

  it('derives the ids from GET /users/{id}: the customer group from the company, organisation type 1 with a company', () => {
    const answer: UserAnswer = {
      user_id: 7,
      usertype_id: 2,
      usertype: { usertype_id: 2, usertype_name: 'EXTERN', usertype_external: 1 },
      company: { company_id: 2, company_name: 'Nordhandel Outlet GmbH', customergroup_id: 1, customergroup: { customergroup_id: 1, customergroup_name: 'Nordhandel Gruppe' } },
      firmengroup_type: null,
      customergroup_id: null,
      company_id: 2,
    };
    const row = userFormRow(answer, { user_last_login_time: '2026-01-01T10:00:00Z' });
    expect(row).toMatchObject({
      firmengroup_type: 1,
      customergroup_id: 1,
      company_id: 2,
      company_id__label: 'Nordhandel Outlet GmbH',
      customergroup_id__label: 'Nordhandel Gruppe',
      user_last_login_time: '2026-01-01T10:00:00Z',
    });
    expect(userFormRow({ user_id: 8, usertype_id: 2, partnergroup_id: 1, company: null }, null).firmengroup_type).toBe(0);
  });

  it('never sends the holiday representative or a password on update', () => {
    const payload = { user_firstname: 'A', hollyday_representative: 3, user_password: 'x', team_id: undefined };
    expect(userPayload(payload, 'update')).toEqual({ user_firstname: 'A', team_id: [] });
    expect(userPayload(payload, 'create')).toMatchObject({ hollyday_representative: 3, user_password: 'x' });
  });

  it('groups every editable field into a section, the teams rendered by the form itself', () => {
    const all = (['person', 'access', 'organisation'] as const).flatMap((s) => sectionAttributes(USER.attributes, s).map((a) => a.attribute));
    const editable = USER.attributes.filter((a) => !a.read_only && a.attribute !== 'team_id').map((a) => a.attribute);
    for (const name of editable) expect(all, name).toContain(name);
    expect(all).not.toContain('team_id');
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('the team form', () => {
  const attrs = teamAttributes(TEAM.attributes, 'Roles');
  const attr = (name: string) => attrs.find((a) => a.attribute === name) as AttributeDefinition;
  const visible = (name: string, values: Record<string, unknown>) => !attr(name).show_when || holds(attr(name).show_when!, values);

  it('shows the parent team for external client and friendtzieze teams, choosing among internal teams', () => {
    expect(visible('parent_id', { team_type: 'extern_client' })).toBe(true);
    expect(visible('parent_id', { team_type: 'friendtzieze' })).toBe(true);
    expect(visible('parent_id', { team_type: 'intern' })).toBe(false);
    expect(visible('parent_id', { team_type: 'extern_partner' })).toBe(false);
    expect(attr('parent_id').ref?.where).toEqual([{ target: 'team_type', value: 'intern' }]);
  });

  it('is for all customers by default, not editable on update; group lists only when it is not', () => {
    expect(initialValues(attrs, 'create').team_for_all_customer).toBe(1);
    expect(attr('team_for_all_customer').immutable).toBe(true);
    for (const list of ['customergroup_id', 'company_id', 'partnercompany_id']) {
      expect(visible(list, { team_type: 'extern_client', team_for_all_customer: 1 }), list).toBe(false);
      expect(visible(list, { team_type: 'extern_client', team_for_all_customer: 0 }), list).toBe(true);
    }
  });

  it('requires customer groups for a client team not for all customers, partner groups for a partner team', () => {
    const base = { team_name: 'X', team_for_all_customer: 0 };
    expect(validateRecord(attrs, { ...base, team_type: 'extern_client' }, env(true))).toHaveProperty('customergroup_id');
    expect(validateRecord(attrs, { ...base, team_type: 'extern_client', team_for_all_customer: 1 }, env(true))).not.toHaveProperty('customergroup_id');
    expect(validateRecord(attrs, { ...base, team_type: 'extern_partner', team_for_all_customer: 1 }, env(true))).toHaveProperty('partnergroup_id');
    expect(validateRecord(attrs, { ...base, team_type: 'intern' }, env(true))).toEqual({});
  });

  it('sends the roles, names the team on update and never changes team_for_all_customer', () => {
    expect(attrs.map((a) => a.attribute)).toContain('role_id');
    expect(teamPayload({ team_name: 'X', team_for_all_customer: 1 }, null)).toMatchObject({ team_for_all_customer: 1, role_id: [], customergroup_id: [] });
    const update = teamPayload({ team_name: 'X', team_for_all_customer: 0, role_id: [2] }, 9, 4);
    expect(update).toMatchObject({ team_id: 9, role_id: [2], row_version: 4 });
    expect(update).not.toHaveProperty('team_for_all_customer');
  });

  it('reads the roles of a stored team as ids with labels', () => {
    const row = teamFormRow({
      team_id: 1,
      team_name: 'MVM',
      team_type: 'intern',
      parent_id: null,
      team_for_all_customer: 1,
      team_description: null,
      customergroup_id: [],
      partnergroup_id: [],
      company_id: [],
      partnercompany_id: [],
      users: [],
      roles: [{ role_id: 2, role_name: 'Team lead' }],
    });
    expect(row).toMatchObject({ role_id: [2], role_id__label: ['Team lead'] });
    expect(row).not.toHaveProperty('users');
  });

  it('refuses a membership that ends before it starts', () => {
    expect(endsBeforeStart('2026-02-01', '2026-01-31')).toBe(true);
    expect(endsBeforeStart('2026-02-01', '2026-02-01')).toBe(false);
    expect(endsBeforeStart(null, '2026-01-31')).toBe(false);
  });
});
