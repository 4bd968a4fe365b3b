import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/de';
import 'dayjs/locale/fr';

dayjs.extend(customParseFormat);

/** A date value as it comes from the API or from a form. */
export type DateInput = string | number | Date | Dayjs | null | undefined;

/**
 * Date patterns per interface language, the one format lists, detail views
 * and inputs share: English is en-US (month first), German and French put
 * the day first. Any other language uses the English pattern.
 */
const DATE_FORMATS: Record<string, string> = {
  de: 'DD.MM.YYYY',
  en: 'MM/DD/YYYY',
  fr: 'DD/MM/YYYY',
};
const OTHER_DATE_FORMAT = DATE_FORMATS.en;
const TIME_FORMAT = 'HH:mm';

/** Month and day (relative list rule), per language. */
const MONTH_DAY_FORMATS: Record<string, string> = {
  de: 'D. MMM',
  en: 'MMM D',
  fr: 'D MMM',
};

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The dayjs pattern of a date in `lang` (DD.MM.YYYY, MM/DD/YYYY, DD/MM/YYYY). */
export function dateFormatFor(lang: string): string {
  return DATE_FORMATS[lang] ?? OTHER_DATE_FORMAT;
}

/** What a typed date reads as: the wire value ('YYYY-MM-DD', null when blank), or not a date. */
export type ParsedDate = { ok: true; value: string | null } | { ok: false };

const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
/** Day first (German, French): 31.12.2031, 31/12/2031 or 31-12-2031, one separator throughout. */
const DAY_FIRST = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4})$/;
/** Month first (English): 12/31/2031 only; a dotted date is a day-first date and refused. */
const MONTH_FIRST = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** Days of `month` (1–12) in `year`, leap years by the Gregorian rule. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function calendarDay(year: number, month: number, day: number): ParsedDate {
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return { ok: false };
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return { ok: true, value: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` };
}

/**
 * Reads a date typed in `lang`'s order, strictly: German and French day
 * first, English month first, four-digit years, and ISO 2031-12-31 in every
 * language. A day or month that does not exist (31/12/2031 in English,
 * 29.02.2031) is refused, never rolled over into another date.
 */
export function parseDateText(text: string, lang: string): ParsedDate {
  const typed = text.trim();
  if (typed === '') return { ok: true, value: null };
  const iso = ISO_DATE.exec(typed);
  if (iso) return calendarDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  if (dateFormatFor(lang).startsWith('MM')) {
    const m = MONTH_FIRST.exec(typed);
    return m ? calendarDay(Number(m[3]), Number(m[1]), Number(m[2])) : { ok: false };
  }
  const d = DAY_FIRST.exec(typed);
  return d ? calendarDay(Number(d[4]), Number(d[3]), Number(d[1])) : { ok: false };
}

/** True when the value carries a time of day ("2024-05-01" does not). */
export function hasTime(value: DateInput): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return !DATE_ONLY.test(value.trim());
  return true;
}

function parse(value: DateInput): Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    // "YYYY-MM-DD HH:mm:ss" from the API: parse as local time.
    const parsed = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(trimmed)
      ? dayjs(trimmed, ['YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DD HH:mm'], true)
      : dayjs(trimmed);
    return parsed.isValid() ? parsed : null;
  }
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed : null;
}

/**
 * Formats a date for display: German DD.MM.YYYY, English MM/DD/YYYY, French
 * DD/MM/YYYY (dateFormatFor), followed by " HH:mm" when the value has a time. A
 * timestamp from today shows only HH:mm. Invalid or empty values give "".
 */
export function formatDate(value: DateInput, lang: string, now: DateInput = dayjs()): string {
  const date = parse(value);
  if (!date) return '';
  const withTime = hasTime(value);
  const today = parse(now) ?? dayjs();
  if (withTime && date.isSame(today, 'day')) return date.format(TIME_FORMAT);
  const pattern = dateFormatFor(lang);
  return withTime ? `${date.format(pattern)} ${date.format(TIME_FORMAT)}` : date.format(pattern);
}

/**
 * Formats a timestamp for lists: today shows the time only; a day before
 * today within the last 7 days shows month, day and time; older values (and
 * future days) show month and day.
 */
export function formatRelative(value: DateInput, lang: string, now: DateInput = dayjs()): string {
  const date = parse(value);
  if (!date) return '';
  const reference = parse(now) ?? dayjs();
  const monthDay = MONTH_DAY_FORMATS[lang] ?? MONTH_DAY_FORMATS.fr;
  const localized = date.locale(lang in MONTH_DAY_FORMATS ? lang : 'en');
  if (date.isSame(reference, 'day')) return date.format(TIME_FORMAT);
  const sevenDaysAgo = reference.subtract(7, 'day');
  if (date.isBefore(reference.startOf('day')) && !date.isBefore(sevenDaysAgo)) {
    return localized.format(`${monthDay}, ${TIME_FORMAT}`);
  }
  return localized.format(monthDay);
}
