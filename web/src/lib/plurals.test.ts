import { afterAll, describe, expect, it } from 'vitest';
import de from '../../../internal/i18n/locales/de.json';
import en from '../../../internal/i18n/locales/en.json';
import fr from '../../../internal/i18n/locales/fr.json';
import { i18n } from './i18n-instance';

const catalogues: Record<string, Record<string, string>> = { en, de, fr };
const FORM = /_(one|other|many)$/;

/**
 * The plural forms each language needs, as i18next asks for them through
 * Intl.PluralRules (CLDR): English and German "one" and "other"; French
 * "one" (0 and 1), "other" and "many" (a multiple of a million, "1 000 000
 * de lignes"). i18next does not fall back from "many" to "other", so French
 * carries both.
 */
const NEEDED: Record<string, string[]> = { en: ['one', 'other'], de: ['one', 'other'], fr: ['one', 'other', 'many'] };

describe('the plural forms of the catalogues', () => {
  for (const [lang, texts] of Object.entries(catalogues)) {
    it(`gives every ${lang} text with {{count}} its plural forms`, () => {
      const bare = Object.entries(texts)
        .filter(([key, text]) => text.includes('{{count}}') && !FORM.test(key))
        .map(([key]) => key);
      expect(bare).toEqual([]);
    });

    it(`has every form ${lang} needs of every plural key, and no bare key beside them`, () => {
      const bases = new Set(Object.values(catalogues).flatMap((c) => Object.keys(c).filter((k) => FORM.test(k)).map((k) => k.replace(FORM, ''))));
      const missing = [...bases].flatMap((base) => NEEDED[lang].map((form) => `${base}_${form}`)).filter((key) => !(key in texts));
      expect(missing).toEqual([]);
      expect([...bases].filter((base) => base in texts)).toEqual([]);
    });

    it(`writes no "(s)" plural in ${lang}`, () => {
      expect(Object.entries(texts).filter(([, text]) => /\p{L}\((s|e|en|n|es|x)\)/u.test(text))).toEqual([]);
    });
  }
});

describe('plural texts in the app’s i18next', () => {
  for (const [lang, texts] of Object.entries(catalogues)) i18n.addResourceBundle(lang, 'translation', texts, true, true);
  const previous = i18n.language;
  afterAll(() => void i18n.changeLanguage(previous));

  // Worked examples: CLDR 46 cardinal rules (unicode.org/cldr/charts/46/supplemental/language_plural_rules.html).
  const cases: Array<[lang: string, key: string, args: Record<string, unknown>, texts: [zero: string, one: string, two: string]]> = [
    ['en', 'grid.row_count', {}, ['0 rows', '1 row', '2 rows']],
    ['de', 'grid.row_count', {}, ['0 Zeilen', '1 Zeile', '2 Zeilen']],
    ['fr', 'grid.row_count', {}, ['0 ligne', '1 ligne', '2 lignes']],
    ['en', 'kanban.card_count', {}, ['0 tickets', '1 ticket', '2 tickets']],
    ['de', 'import.committed', {}, ['0 Datensätze importiert.', '1 Datensatz importiert.', '2 Datensätze importiert.']],
    ['fr', 'import.committed', {}, ['0 enregistrement importé.', '1 enregistrement importé.', '2 enregistrements importés.']],
    [
      'en',
      'invoices.invoice_findings',
      {},
      [
        '0 findings concern the whole invoice (see the contradictions).',
        '1 finding concerns the whole invoice (see the contradictions).',
        '2 findings concern the whole invoice (see the contradictions).',
      ],
    ],
    [
      'de',
      'invoices.invoice_findings',
      {},
      [
        '0 Befunde betreffen die ganze Rechnung (siehe Widersprüche).',
        '1 Befund betrifft die ganze Rechnung (siehe Widersprüche).',
        '2 Befunde betreffen die ganze Rechnung (siehe Widersprüche).',
      ],
    ],
    ['fr', 'invoices.picked', { sum: '5,00 €' }, ['0 sélectionnée, 5,00 € au total', '1 sélectionnée, 5,00 € au total', '2 sélectionnées, 5,00 € au total']],
    ['fr', 'indexation.proposal_count', {}, ['0 proposition ouverte', '1 proposition ouverte', '2 propositions ouvertes']],
    ['en', 'relation.end_link', {}, ['End 0 links', 'End link', 'End 2 links']],
    ['de', 'relation.end_link', {}, ['0 Verknüpfungen beenden', 'Verknüpfung beenden', '2 Verknüpfungen beenden']],
  ];
  for (const [lang, key, args, [zero, one, two]] of cases) {
    it(`says ${key} in ${lang} for 0, 1 and 2`, () => {
      const t = i18n.getFixedT(lang);
      expect([0, 1, 2].map((count) => t(key, { ...args, count }))).toEqual([zero, one, two]);
    });
  }

  it('finds the French form for a million', () => {
    expect(i18n.getFixedT('fr')('grid.row_count', { count: 1_000_000 })).toBe('1000000 lignes');
  });
});
