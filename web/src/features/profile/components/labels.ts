import type { TFunction } from 'i18next';

/** The user type in the interface's language, not its stored code (INTERN, EXTERN). */
export function usertypeLabel(t: TFunction, usertype: { usertype_external: number | boolean }): string {
  return usertype.usertype_external ? t('profile.usertype_external') : t('profile.usertype_internal');
}

/** A role in the interface's language by its code; a role without a translation keeps its stored name. */
export function roleLabel(t: TFunction, role: { role_code: string; role_name: string }): string {
  return t(`profile.role.${role.role_code}`, { defaultValue: role.role_name });
}
