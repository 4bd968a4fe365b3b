import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import de from '../../internal/i18n/locales/de.json';
import en from '../../internal/i18n/locales/en.json';
import fr from '../../internal/i18n/locales/fr.json';
import type { TableRouteKind } from './app/guards/access';
import { MENU } from './app/menu';

const locales: Record<string, Record<string, string>> = { en, de, fr };
const KEY_PREFIXES = [
  'general',
  'validation',
  'layout',
  'auth',
  'status',
  'placeholder',
  'screen',
  'menu',
  'menu_page',
  'home',
  'profile',
  'table',
  'grid',
  'form',
  'relation',
  'views',
  'users',
  'teams',
  'documents',
  'backoffice',
  'master_data_page',
  'menu_search',
  'entity',
  'contracts',
  'indexation',
  'kanban',
  'invoices',
  'mailbox',
  'history',
];
const KEY_PATTERN = new RegExp(`['"\`]((?:${KEY_PREFIXES.join('|')})\\.[a-z0-9_]+(?:\\.[a-z0-9_]+)*)['"\`]`, 'g');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every literal translation key in src/, plus the keys the code builds from data. */
function usedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const file of sourceFiles(resolve(import.meta.dirname))) {
    for (const match of readFileSync(file, 'utf8').matchAll(KEY_PATTERN)) keys.add(match[1]);
  }
  const kinds: TableRouteKind[] = ['list', 'view', 'create', 'kanban', 'import', 'popup'];
  for (const kind of kinds) keys.add(`screen.table_${kind}`);
  // Pagination controls name their buttons from grid.page_<control>.
  for (const control of ['first', 'previous', 'next', 'last']) keys.add(`grid.page_${control}`);
  // New-record titles name the entity of every table: entity.<table>.
  for (const key of Object.keys(en)) if (key.startsWith('table.')) keys.add(`entity.${key.slice('table.'.length)}`);
  for (const section of MENU) {
    keys.add(section.labelKey);
    for (const entry of section.entries) keys.add(entry.labelKey);
  }
  return keys;
}

describe('translations', () => {
  const keys = [...usedKeys()].sort();

  it('finds the keys used in the code', () => {
    expect(keys.length).toBeGreaterThan(100);
    expect(keys).toContain('general.error');
    expect(keys).toContain('table.contradictionpackage');
  });

  for (const [lang, texts] of Object.entries(locales)) {
    it(`has every used key in ${lang}.json`, () => {
      // A key used with a count is found by i18next through its plural forms.
      const present = (key: string) => [key, `${key}_other`].some((k) => typeof texts[k] === 'string' && texts[k].trim() !== '');
      const missing = keys.filter((key) => !present(key));
      expect(missing).toEqual([]);
    });
  }

  it('has the same UI keys in all three languages', () => {
    const ui = (texts: Record<string, string>) =>
      Object.keys(texts)
        // Only French has a "many" plural form (lib/plurals.test.ts checks them).
        .filter((key) => KEY_PREFIXES.includes(key.split('.')[0]) && !key.endsWith('_many'))
        .sort();
    expect(ui(de)).toEqual(ui(en));
    expect(ui(fr)).toEqual(ui(en));
  });

  it('keeps the specified general texts', () => {
    expect(en['general.error']).toBe('An error has occurred');
    expect(en['general.server_down']).toBe('The server is unavailable');
    expect(en['general.unauthorized']).toBe('This action is not authorized');
  });

  it('calls a company by one German name, as its menu entry and fields do ("Gesellschaft", not also "Firma")', () => {
    expect(de['table.company']).toBe('Gesellschaften');
    expect(Object.entries(de).filter(([, text]) => /\bFirm(a|en)/.test(text))).toEqual([]);
  });

  it('uses the same placeholders in every language', () => {
    const vars = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const texts: Record<string, Record<string, string>> = { en, de, fr };
    // A key and each of its plural forms; only French has a "many" form.
    const forms = keys.flatMap((key) => [key, `${key}_one`, `${key}_other`]);
    for (const key of forms) {
      expect(vars(texts.de[key] ?? ''), `de ${key}`).toEqual(vars(texts.en[key] ?? ''));
      // French "one" also covers 0, so its text may show the count where English says "one".
      const noCount = (v: string[]) => (key.endsWith('_one') ? v.filter((name) => name !== 'count') : v);
      expect(noCount(vars(texts.fr[key] ?? '')), `fr ${key}`).toEqual(noCount(vars(texts.en[key] ?? '')));
    }
  });
});
