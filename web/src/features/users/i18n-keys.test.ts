import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import de from '../../../../internal/i18n/locales/de.json';
import en from '../../../../internal/i18n/locales/en.json';
import fr from '../../../../internal/i18n/locales/fr.json';
import { ADMIN_ACTIONS } from './api/administer-user';

/**
 * The texts of the user and team screens (users.*, teams.*): every key the
 * code uses exists in en, de and fr with the same placeholders, and the three
 * languages hold the same keys. (The app-wide test covers the other prefixes.)
 */
const locales: Record<string, Record<string, string>> = { en, de, fr };
const PREFIXES = ['users', 'teams'];
const KEY = new RegExp(`['"\`]((?:${PREFIXES.join('|')})\\.[a-z0-9_]+)['"\`]`, 'g');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function usedKeys(): string[] {
  const keys = new Set<string>();
  for (const file of sources(import.meta.dirname)) for (const m of readFileSync(file, 'utf8').matchAll(KEY)) keys.add(m[1]);
  // Built from the action names: users.action_<action>, users.confirm_<action>.
  for (const action of ADMIN_ACTIONS) {
    keys.add(`users.action_${action.replaceAll('-', '_')}`);
    keys.add(`users.confirm_${action.replaceAll('-', '_')}`);
  }
  return [...keys].sort();
}

describe('texts of the user and team screens', () => {
  const keys = usedKeys();
  // Only French has a "many" plural form (lib/plurals.test.ts checks them).
  const own = (texts: Record<string, string>) =>
    Object.keys(texts)
      .filter((k) => PREFIXES.includes(k.split('.')[0]) && !k.endsWith('_many'))
      .sort();
  const vars = (text = '') => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

  it('finds the keys', () => expect(keys.length).toBeGreaterThan(40));

  for (const [lang, texts] of Object.entries(locales)) {
    it(`has every used key in ${lang}.json`, () => {
      // A key used with a count is found through its plural forms (key_one, key_other).
      const present = (k: string) => [k, `${k}_other`].some((f) => typeof texts[f] === 'string' && texts[f].trim() !== '');
      expect(keys.filter((k) => !present(k))).toEqual([]);
    });
  }

  it('has the same keys and placeholders in all three languages', () => {
    expect(own(de)).toEqual(own(en));
    expect(own(fr)).toEqual(own(en));
    for (const key of own(en)) {
      expect(vars(de[key as keyof typeof de]), `de ${key}`).toEqual(vars(en[key as keyof typeof en]));
      // French "one" also covers 0, so it may show the count where English says "one".
      const noCount = (v: string[]) => (key.endsWith('_one') ? v.filter((n) => n !== 'count') : v);
      expect(noCount(vars(fr[key as keyof typeof fr])), `fr ${key}`).toEqual(noCount(vars(en[key as keyof typeof en])));
    }
  });

  it('keeps the specified texts', () => {
    expect(en['users.created']).toBe('User Created');
    expect(en['users.updated']).toBe('User Updated');
  });
});
