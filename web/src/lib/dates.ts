import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/de';
import 'dayjs/locale/fr';

dayjs.extend(customParseFormat);

/** A date value as it comes from the API or from a form. */
export type DateInput = string | number | Date | Dayjs | null | undefined;

/** Date patterns per interface language; any other language uses DD-MM-YYYY. */
const DATE_FORMATS: Record<string, string> = {
  de: 'DD.MM.YYYY',
  en: 'YYYY-MM-DD',
};
const OTHER_DATE_FORMAT = 'DD-MM-YYYY';
const TIME_FORMAT = 'HH:mm';

/** Month and day (relative list rule), per language. */
const MONTH_DAY_FORMATS: Record<string, string> = {
  de: 'D. MMM',
  en: 'MMM D',
  fr: 'D MMM',
};

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export function dateFormatFor(lang: string): string {
  return DATE_FORMATS[lang] ?? OTHER_DATE_FORMAT;
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
 * Formats a date for display: German DD.MM.YYYY, English YYYY-MM-DD, other
 * languages DD-MM-YYYY, followed by " HH:mm" when the value has a time. A
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
