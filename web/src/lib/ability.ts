import { createMongoAbility, type MongoAbility, type RawRuleOf } from '@casl/ability';
import type { CurrentUser, RawAbilityRule } from './session';

/** Actions of the permission model; `manage` stands for all of them. */
export type Action = 'manage' | 'list' | 'read' | 'create' | 'update' | 'remove' | 'note' | 'seeHeader' | 'share';

/** Subjects are table names (`ticket`), `menu_<name>`, `Auth`, or `all`. */
export type Subject = string;

export type AppAbility = MongoAbility<[Action, Subject]>;

/** One (action, subject) requirement of a route or menu entry. */
export interface Permission {
  action: Action;
  subject: Subject;
}

/** Builds the CASL ability from the `rules` of GET /user/. */
export function buildAbility(rules: readonly RawAbilityRule[] | null | undefined): AppAbility {
  const valid = (rules ?? []).filter(
    (rule) => rule && (typeof rule.action === 'string' || Array.isArray(rule.action)) && rule.subject !== undefined,
  );
  return createMongoAbility<[Action, Subject]>(valid as RawRuleOf<AppAbility>[]);
}

/** True when the ability allows every one of `permissions`. */
export function canAll(ability: AppAbility, permissions: readonly Permission[]): boolean {
  return permissions.every((p) => ability.can(p.action, p.subject));
}

/**
 * The external facility-management team (id 7 in the specification). Its
 * members work on the boards; the internal FM team (id 2) does not.
 */
export const FM_TEAM_ID = 7;

/** True when the user belongs to the external facility-management team. */
export function isFacilityManagementMember(user: CurrentUser | null | undefined): boolean {
  if (!user) return false;
  return Array.isArray(user.team_id) && user.team_id.map(Number).includes(FM_TEAM_ID);
}
