/**
 * Numbers as people type and read them in the interface language: English
 * 1,234.56, German 1.234,56, French 1 234,56. The API keeps JSON numbers;
 * these functions only translate between those and the text of an input or
 * a read-only view (decision 0068).
 */

/** The BCP 47 locale whose number (and date) conventions a language follows. */
const LOCALES: Record<string, string> = { en: 'en-US', de: 'de-DE', fr: 'fr-FR' };

/** Every space French writes between thousands (the space bar, no-break and narrow no-break spaces). */
const SPACES = ' \u00a0\u202f';

interface Separators {
  decimal: string;
  /** Characters that may separate thousands; each a class of its own. */
  group: string;
}

const SEPARATORS: Record<string, Separators> = {
  en: { decimal: '.', group: ',' },
  de: { decimal: ',', group: '.' },
  fr: { decimal: ',', group: SPACES },
};

/** Digits a JSON number (an IEEE double) carries exactly. */
export const MAX_SIGNIFICANT_DIGITS = 15;

/** Fraction digits a stored decimal keeps (NUMERIC(18,4)). */
export const DECIMAL_PLACES = 4;

export function numberLocale(lang: string): string {
  return LOCALES[lang] ?? LOCALES.en;
}

function separators(lang: string): Separators {
  return SEPARATORS[lang] ?? SEPARATORS.en;
}

/** Why a typed number was refused. */
export type NumberProblem = 'invalid' | 'whole' | 'decimals' | 'digits';

/** What a typed number reads as: the value (null when blank), or the reason it is not one. */
export type ParsedNumber = { ok: true; value: number | null } | { ok: false; problem: NumberProblem };

function escape(chars: string): string {
  return chars.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

const patterns = new Map<string, RegExp>();

/**
 * The shape of a number in `lang`: a sign, then digits either without
 * separators or in groups of three after one to three leading digits, then
 * the decimal separator and digits.
 */
function numberPattern(lang: string): RegExp {
  let re = patterns.get(lang);
  if (!re) {
    const { decimal, group } = separators(lang);
    const g = `[${escape(group)}]`;
    const whole = `(?:\\d+|\\d{1,3}(?:${g}\\d{3})+)`;
    re = new RegExp(`^([-+\u2212]?)(${whole}?)(?:${escape(decimal)}(\\d+))?$`, 'u');
    patterns.set(lang, re);
  }
  return re;
}

/**
 * Reads a number typed in `lang`, strictly: "1.234,56" in German and
 * "1 234,56" in French are 1234.56, as "1,234.56" is in English; thousands
 * separators only between groups of three, so German "12.5" is refused
 * rather than read as 125. `decimals` is how many fraction digits the field
 * keeps (0: whole numbers); a value with more, or with more digits than a
 * JSON number keeps exactly, is refused instead of rounded.
 */
export function parseNumberText(text: string, lang: string, decimals: number): ParsedNumber {
  const typed = text.trim(); // every Unicode space, no-break ones too
  if (typed === '') return { ok: true, value: null };
  const m = numberPattern(lang).exec(typed);
  if (!m || (m[2] === '' && m[3] === undefined)) return { ok: false, problem: 'invalid' };
  const sign = m[1] === '' || m[1] === '+' ? '' : '-';
  const whole = m[2].replace(/\D/g, '') || '0';
  const fraction = m[3] ?? '';
  if (fraction.length > decimals) return { ok: false, problem: decimals === 0 ? 'whole' : 'decimals' };
  const significant = (whole + fraction).replace(/^0+/, '');
  if (significant.length > MAX_SIGNIFICANT_DIGITS) return { ok: false, problem: 'digits' };
  const value = Number(`${sign}${whole}${fraction ? `.${fraction}` : ''}`);
  return { ok: true, value: Object.is(value, -0) ? 0 : value };
}

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(lang: string, grouping: boolean, minDecimals: number, maxDecimals: number): Intl.NumberFormat {
  const key = `${lang}:${grouping}:${minDecimals}:${maxDecimals}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(numberLocale(lang), { useGrouping: grouping, minimumFractionDigits: minDecimals, maximumFractionDigits: maxDecimals });
    formats.set(key, f);
  }
  return f;
}

function asNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * The text of a stored number in an input: the language's decimal
 * separator, no thousands separators (they would be typed over), at least
 * `minDecimals` fraction digits and every digit the value has. "" when empty.
 */
export function formatNumberInput(value: unknown, lang: string, minDecimals = 0): string {
  const n = asNumber(value);
  return n === null ? '' : numberFormat(lang, false, minDecimals, 20).format(n);
}

/**
 * The text of a number in a read-only view (lists, detail views):
 * thousands separated, decimals with two to four fraction digits (the
 * stored scale; a computed sum's float noise goes); whole numbers (years,
 * counts, internal numbers) without separators.
 */
export function formatNumberDisplay(value: unknown, lang: string, decimal: boolean): string {
  const n = asNumber(value);
  if (n === null) return value === null || value === undefined ? '' : String(value);
  return decimal ? numberFormat(lang, true, 2, DECIMAL_PLACES).format(n) : String(n);
}

/** An example of a number as `lang` writes it, for messages: 1,234.56, 1.234,56, 1 234,56 (or 1234 for whole numbers). */
export function numberExample(lang: string, decimals: number): string {
  return decimals === 0 ? '1234' : numberFormat(lang, true, 2, 2).format(1234.56);
}
