import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import de from '../../../../../internal/i18n/locales/de.json';
import en from '../../../../../internal/i18n/locales/en.json';
import { roleLabel, usertypeLabel } from './labels';

/** A t() over one locale file, with i18next's defaultValue fallback. */
function tOf(texts: Record<string, string>): TFunction {
  return ((key: string, opts?: { defaultValue?: string }) => texts[key] ?? opts?.defaultValue ?? key) as unknown as TFunction;
}

describe('profile labels', () => {
  it('shows translated labels, not the stored codes', () => {
    expect(usertypeLabel(tOf(en), { usertype_external: 0 })).toBe('Internal (service provider staff)');
    expect(usertypeLabel(tOf(en), { usertype_external: 1 })).toBe('External (client or partner)');
    expect(roleLabel(tOf(en), { role_code: 'admin', role_name: 'Administratoren' })).toBe('Administrators');
    expect(roleLabel(tOf(de), { role_code: 'team_lead', role_name: 'Team Lead' })).toBe('Teamleitung');
  });
  it('keeps the stored name of a role without a translation', () => {
    expect(roleLabel(tOf(en), { role_code: 'custom', role_name: 'Own role' })).toBe('Own role');
  });
});
